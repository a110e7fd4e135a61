package bot

import (
	"strconv"
	"testing"
	"time"
)

// An interaction is answered only within Discord's window, judged by the
// time in its id.
func TestInteractionsTooOldToAnswerAreDropped(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	id := func(at time.Time) string {
		return strconv.FormatUint(uint64(at.UnixMilli()-1420070400000)<<22, 10)
	}
	for _, tc := range []struct {
		at  time.Time
		old bool
	}{
		{now.Add(-100 * time.Millisecond), false},
		{now.Add(-2900 * time.Millisecond), false},
		{now.Add(time.Second), false}, // Discord's clock ahead of ours
		{now.Add(-3100 * time.Millisecond), true},
		{now.Add(-time.Hour), true}, // replayed after a long RESUME
	} {
		if _, old := tooOld(id(tc.at), now); old != tc.old {
			t.Errorf("created %v before: too old %v, want %v", now.Sub(tc.at), old, tc.old)
		}
	}
	if _, old := tooOld("not-a-snowflake", now); old {
		t.Error("an unreadable id is not dropped")
	}
}

// An interaction that reached the bot late is deferred sooner, inside
// Discord's window.
func TestLateInteractionIsDeferredSooner(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ age, after, want time.Duration }{
		{0, 2 * time.Second, 2 * time.Second},
		{time.Second, 2 * time.Second, 1500 * time.Millisecond},
		{2400 * time.Millisecond, 2 * time.Second, 100 * time.Millisecond},
		{2900 * time.Millisecond, 2 * time.Second, time.Millisecond},
		{0, 150 * time.Millisecond, 150 * time.Millisecond},
	} {
		if got := deferIn(tc.age, tc.after); got != tc.want {
			t.Errorf("age %v, defer after %v: deferred after %v, want %v", tc.age, tc.after, got, tc.want)
		}
	}
}
