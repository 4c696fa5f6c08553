// Package kokua holds Kokua's own vocabulary, written once for the linter,
// the compiler and the runtime alike: the core tools and the reserved
// names, the approval-entry grammar, trust order, the approval tiers and
// where a pair comes from, and the shadowing of one tool name by another
// with its alert text. A host that reads or writes Kokua's names itself
// (an approval entry it shows, a toolset name it checks) uses these facts
// so that it reads them as Kokua does: ParseEntry, Reserved, CoreTools,
// TrustRank. Its lists are functions that return a copy, so no importer
// can change them for another.
//
// It depends on the standard library only, so that package policy, which a
// host embeds, can use it.
package kokua
