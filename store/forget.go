package store

// ForgetGuild deletes every live and archived game of guild (for /ttr forget)
// in one transaction, and returns how many of each it removed. The guild
// index finds its live games.
func (s *Store) ForgetGuild(guild string) (live, archived int, err error) {
	err = s.update(func(t txn) error {
		live, archived = 0, 0
		games, err := t.guildGames(guild)
		if err != nil {
			return err
		}
		for _, g := range games {
			old, err := t.header(g.Channel)
			if isNotFound(err) {
				continue // gone meanwhile (another process)
			}
			if err != nil {
				return err
			}
			if err := t.deleteGame(old); err != nil {
				return err
			}
			if err := t.notify(g.Channel); err != nil {
				return err
			}
			live++
		}
		archived, err = t.forgetArchived(guild)
		return err
	})
	return live, archived, err
}
