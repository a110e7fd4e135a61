package bot

import "testing"

// TestLaunchedInstance: the instance of a LAUNCH_ACTIVITY answer is read
// from either place Discord names it, preferring the resource; two
// different ids, or none, name no instance.
func TestLaunchedInstance(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer, want string
		ok           bool
	}{
		{`{"interaction":{"id":"1","type":2,"activity_instance_id":"i-1"},"resource":{"type":12,"activity_instance":{"id":"i-1"}}}`, "i-1", true},
		{`{"interaction":{"id":"1","type":2,"activity_instance_id":"i-2"}}`, "i-2", true},
		{`{"interaction":{"id":"1","type":2,"activity_instance_id":null},"resource":{"type":12,"activity_instance":{"id":"i-3"}}}`, "i-3", true},
		{`{"interaction":{"id":"1","type":2,"activity_instance_id":"i-4"},"resource":{"type":12,"activity_instance":{"id":"i-5"}}}`, "", false},
		{`{"interaction":{"id":"1","type":2}}`, "", false},
		{`not json`, "", false},
	} {
		got, err := launchedInstance([]byte(c.answer))
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("%s: %q, %v", c.answer, got, err)
		}
	}
}
