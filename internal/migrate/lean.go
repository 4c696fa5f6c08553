package migrate

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// lean handles [assistant].lean_supervisor (kokua.LeanSupervisor) for a
// config from before [agents], whose entry agent entryAgent writes from
// [tools].groups: with roles only the clock, without them every group.
// Where the key's value agrees with that, the key is dropped, the
// available list saying what it meant; where it does not, a person is
// asked, with the toolsets the entry agent gains or loses by the
// migration named. Not written, a file that speaks of the key in its
// comments, spawns workers and writes no roles gets a note for the
// available list, returned: the assistant may never have held the
// groups. docs/readings.md ("lean_supervisor") gives the reading.
func (mg *migration) lean(roles []string, groups *tomlpos.Node) (availableFlag string) {
	strs, listed := stringsOf(groups)
	var named []string // the groups the assistant gains or loses
	if listed {
		for _, s := range strs {
			if s != kokua.RoleClock && s != kokua.OldGroupsNone && !slices.Contains(named, renamed(s)) {
				named = append(named, renamed(s))
			}
		}
	}
	table := fmt.Sprintf("[agents.%s.tools]", tomlpos.QuoteKey(mg.entry))
	spawns := false
	if sub := mg.root.Lookup("assistant", "subagents"); sub != nil && sub.Kind == tomlpos.KindBool {
		spawns = sub.Bool
	}
	n := mg.root.Lookup("assistant", kokua.LeanSupervisor)
	if n == nil {
		if len(roles) == 0 && spawns && len(named) > 0 && bytes.Contains(mg.src.Data, []byte(kokua.LeanSupervisor)) {
			return fmt.Sprintf("if lean_supervisor was on (it is not written here, and Kokua's examples that describe it say it is on by default), [tools].groups was what the workers the assistant spawned could draw on, not the assistant's own tools, and this list gives the assistant %s itself: keep the ones it should call, give the rest to the worker agents you declare, then delete this comment", and(named))
		}
		return ""
	}
	w, ok := mg.writtenOf(n)
	if n.Kind != tomlpos.KindBool || !ok {
		mg.flagAt(keyFrom(n), "[assistant].lean_supervisor chose whether the assistant or its workers held [tools].groups, and nothing reads it now that each agent lists its toolsets: check %s's available list, then delete this line and this comment", table)
		return ""
	}
	switch {
	case !n.Bool && len(roles) > 0 && len(named) > 0:
		mg.flagAt(keyFrom(n), "[assistant].lean_supervisor = false made the assistant the flat agent that carried every group of [tools].groups itself, but with the roles as agents %s's available list gives it only %s of them, so it loses %s: add the ones it should keep, then delete this line and this comment", table, kokua.RoleClock, and(named))
	case n.Bool && len(roles) == 0 && spawns && len(named) > 0:
		mg.flagAt(keyFrom(n), "[assistant].lean_supervisor = true kept the assistant to its cross-cutting toolsets and gave [tools].groups to the workers it spawned, but %s's available list gives the assistant %s itself: keep the ones it should call, give the rest to the worker agents you declare, then delete this line and this comment", table, and(named))
	default:
		mg.drop(n, w, "[assistant].lean_supervisor")
		mg.change(n, "[assistant].lean_supervisor = %t was dropped: %s's available list holds what it gave the assistant", n.Bool, table)
	}
	return ""
}
