//! The kokua-lint extension for Zed (docs/editor.md): it starts
//! `kokua-lint lsp` for TOML buffers. The command is `kokua-lint` from the
//! worktree's PATH, or `lsp.kokua-lint.binary.path` (and `.arguments`) from
//! Zed's settings; `lsp.kokua-lint.initialization_options` is handed to the
//! server as is (`{"manifest": "kokua.manifest.json"}`).
use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

const COMMAND: &str = "kokua-lint";

struct KokuaLint;

impl zed::Extension for KokuaLint {
    fn new() -> Self {
        KokuaLint
    }

    fn language_server_command(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let command = binary
            .as_ref()
            .and_then(|b| b.path.clone())
            .or_else(|| worktree.which(COMMAND))
            .ok_or_else(|| {
                format!(
                    "{COMMAND} is not on PATH: go install github.com/kokua-policy/kokua-policy/cmd/kokua-lint@latest, \
                     or set lsp.kokua-lint.binary.path in Zed's settings"
                )
            })?;
        let args = binary
            .and_then(|b| b.arguments)
            .unwrap_or_else(|| vec!["lsp".to_string()]);
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.initialization_options))
    }
}

zed::register_extension!(KokuaLint);
