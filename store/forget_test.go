package store

import (
	"context"
	"errors"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestForgetGuild(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for _, g := range []struct{ channel, guild string }{{"c1", "g1"}, {"c2", "g1"}, {"c3", "g2"}, {"c4", "g10"}} {
			mustPut(t, s, sampleGame(g.channel, g.guild, 2))
		}
		var forgottenKeys []string
		for i, g := range []struct{ channel, guild string }{{"a1", "g1"}, {"a2", "g1"}, {"a3", "g2"}, {"a4", "g10"}} {
			archiveGame(t, s, g.channel, g.guild, "usa", 1, "", base.Add(time.Duration(i)*time.Minute),
				PlayerResult{UserID: "u1", Name: "Ada", Score: 10, Won: true})
		}
		entries, _ := s.Archived("g1")
		for _, e := range entries {
			forgottenKeys = append(forgottenKeys, e.Key)
		}

		live, archived, err := s.ForgetGuild("g1")
		if err != nil || live != 2 || archived != 2 {
			t.Fatalf("ForgetGuild = %d, %d, %v; want 2, 2", live, archived, err)
		}
		all, _ := s.List()
		if got := channelsOf(all); got != "c3 c4" {
			t.Fatalf("live games left: %s", got)
		}
		if left, _ := s.Archived("g1"); len(left) != 0 {
			t.Fatalf("archive of g1 left: %+v", left)
		}
		for _, key := range forgottenKeys {
			if _, err := s.ArchivedGame(key); !errors.Is(err, ErrNotFound) {
				t.Fatalf("full record of %q left: %v", key, err)
			}
		}
		for _, other := range []string{"g2", "g10"} {
			if left, _ := s.Archived(other); len(left) != 1 {
				t.Fatalf("archive of %s: %+v", other, left)
			}
			if st, _ := s.Stats(other, ""); st.Games != 1 {
				t.Fatalf("stats of %s: %+v", other, st)
			}
		}
		if st, _ := s.Stats("g1", "u1"); st.Games != 0 || st.User.Games != 0 {
			t.Fatalf("stats of g1 after forget: %+v", st)
		}
		// Nothing of g1 is left anywhere in the database.
		if onPostgres(t) {
			var n int
			pgPool(t, s).QueryRow(context.Background(), "SELECT count(*) FROM archive WHERE guild = 'g1'").Scan(&n)
			if n != 0 {
				t.Errorf("the archive still holds %d games of g1", n)
			}
		} else {
			s.file.db.View(func(tx *bolt.Tx) error {
				for _, name := range [][]byte{bucketArchive, bucketArchivedGames} {
					tx.Bucket(name).ForEach(func(k, _ []byte) error {
						if hasPrefix(k, guildPrefix("g1")) {
							t.Errorf("%s still holds %q", name, k)
						}
						return nil
					})
				}
				return nil
			})
		}
		if live, archived, err := s.ForgetGuild("g1"); err != nil || live != 0 || archived != 0 {
			t.Fatalf("forgetting again = %d, %d, %v", live, archived, err)
		}
	})
}
