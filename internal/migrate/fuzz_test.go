package migrate_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/lint"
)

// FuzzMigrate: whatever TOML it is given, in whatever form its old keys
// are written, the migration never fails in itself (migrate.ErrInternal:
// edits that overlap, a result that is not valid TOML) and never panics;
// its output is valid TOML. The seeds are the cases of testdata/migrate
// and the forms of one config's old keys.
func FuzzMigrate(f *testing.F) {
	for _, dir := range golden.Cases(f, "migrate") {
		if data, err := os.ReadFile(filepath.Join(dir, "config.toml")); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"assistant = { model = \"m\", memory = true }\nsubagents = { concurrent = true }\n[agents]\nassistant = { tools = [\"compute\"], groups = [\"web\"] }\n",
		"security = { confirm_tools = [\"execute_python\", # c\n], auto_approval = { tools = [\"execute_python\"] } }\nagents.assistant.tools = [\"compute\"]\n",
		"assistant.agent = \"a\"\nagents.a.tool_packs = [\"misc\"]\nagents.a.tools = [\"time\"]  # t\nsecurity.auto_approval.tools = [\"run_command\"]\n",
		"[assistant.tools]\nreview = [\"compute\"]\n[agents]\nassistant.tools = [\"compute\"]\n[security]\nconfirm_tools = [\"compute.execute_python\"]\n",
	} {
		f.Add([]byte(s))
	}
	m := lint.DefaultManifest()
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := tomlpos.Parse("config.toml", data); err != nil {
			return
		}
		res, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: data}, m, migrate.Options{})
		if errors.Is(err, migrate.ErrInternal) {
			t.Fatalf("%v\n--- input\n%s", err, data)
		}
		if err != nil {
			return
		}
		if _, err := tomlpos.Parse("config.toml", res.Output); err != nil {
			t.Fatalf("the output is not valid TOML: %v\n--- input\n%s\n--- output\n%s", err, data, res.Output)
		}
	})
}
