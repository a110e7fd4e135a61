package fakediscord

import (
	"crypto/rand"
	"encoding/hex"
	"sort"
	"strconv"
	"sync"
	"time"
)

// discordEpoch is the first millisecond of 2015, where snowflake timestamps start.
const discordEpoch = 1420070400000

// snowflakes hands out Discord-shaped ids. The timestamp part is the time of creation and
// advances at least one millisecond per id, so consecutive guilds land on different shards
// ((id >> 22) % shard count) and discordgo.SnowflakeTimestamp gives the real time.
type snowflakes struct {
	mu   sync.Mutex
	ms   int64
	seq  int64
	once sync.Once
	now  func() time.Time // Discord's clock (Server.Now)
}

func (f *snowflakes) init() {
	f.once.Do(func() {
		if f.now == nil {
			f.now = time.Now
		}
		f.ms = f.now().UnixMilli() - discordEpoch
	})
}

func (f *snowflakes) next() string {
	f.init()
	f.mu.Lock()
	defer f.mu.Unlock()
	// Real time, as Discord's ids carry (the bot judges an interaction's age
	// by it), and at least a millisecond after the previous id.
	f.ms = max(f.ms+1, f.now().UnixMilli()-discordEpoch)
	f.seq = (f.seq + 1) & 0xfff
	return strconv.FormatUint(uint64(f.ms)<<22|uint64(f.seq), 10)
}

// ShardFor returns the shard that receives a guild's events: (guild_id >> 22) % shardCount.
func ShardFor(guildID string, shardCount int) int {
	if shardCount <= 1 {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(shardCount))
}

// randomToken is an unguessable string for interaction tokens and session ids.
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// sortByID orders items by snowflake, that is by creation time.
func sortByID[T any](items []T, id func(T) string) {
	sort.Slice(items, func(i, j int) bool {
		a, b := id(items[i]), id(items[j])
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	})
}
