package diff

import "github.com/kokua-policy/kokua-policy/policy"

// Places of a side's config that other reports point at (kokua-compile
// test explains a failed claim with them): each is the one the diff report
// itself uses for the same item.

// ConfigFile is the name of the config this side's places are in.
func (s *Side) ConfigFile() string { return s.configFile() }

// AvailablePlace is where an agent's availability names a toolset: the
// item, the value "all", or the list when it does not name it.
func (s *Side) AvailablePlace(agent, toolset string) Place { return s.availablePlace(agent, toolset) }

// DelegatePlace is where an agent's delegates_to names a worker.
func (s *Side) DelegatePlace(from, to string) Place { return s.delegatePlace(from, to) }

// EntryPlace is where the policy says an approval entry is written.
func (s *Side) EntryPlace(key string, pos *policy.Position) Place { return s.entryPlace(key, pos) }
