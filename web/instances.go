package web

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"conductor/commands"
)

// What Discord said of each activity instance lately (its server, its
// channel, who is in it), so that a burst of sign-ins or of reconnecting
// pages asks Discord once per instance, not once per page. An answer is
// used while it is young enough for its use: a page that reconnects is
// checked against one up to instanceFresh old, and asked again only when
// it does not list the reader; a sign-in with an older one is the same.

const (
	// instanceFresh: how old an answer may be to let a reader in.
	instanceFresh = 30 * time.Second
	// instanceRecheck: how old an answer may be to keep a reconnecting
	// reader out (it is asked again when older). A sign-in not listed is
	// always asked again: one joins an activity just before opening it.
	instanceRecheck = 3 * time.Second
	// instanceUnknownKept: how long Discord's "no such instance" is kept.
	instanceUnknownKept = time.Minute
	// maxInstancesKept bounds the answers kept.
	maxInstancesKept = 20000
)

type instanceAnswer struct {
	inst commands.ActivityInstance
	err  error // nil or commands.ErrUnknownInstance
	at   time.Time
}

type instances struct {
	mu    sync.Mutex
	m     map[string]*instanceAnswer
	asked singleflight.Group
}

// cached is the answer kept for id, if any not older than maxAge.
func (is *instances) cached(id string, maxAge time.Duration, now time.Time) (*instanceAnswer, bool) {
	is.mu.Lock()
	defer is.mu.Unlock()
	a, ok := is.m[id]
	if !ok {
		return nil, false
	}
	keep := maxAge
	if a.err != nil {
		keep = instanceUnknownKept
	}
	if now.Sub(a.at) > keep || now.Before(a.at) {
		return nil, false
	}
	return a, true
}

// lookup is Discord's answer about id, at most maxAge old: from the cache,
// else asked (once, however many wait for it). A failure to ask is
// returned as it is and not kept.
func (s *Server) lookupInstance(ctx context.Context, id string, maxAge time.Duration) (commands.ActivityInstance, error) {
	is := &s.instances
	if a, ok := is.cached(id, maxAge, s.opts.Now()); ok {
		return a.inst, a.err
	}
	v, err, _ := is.asked.Do(id, func() (any, error) {
		if a, ok := is.cached(id, maxAge, s.opts.Now()); ok {
			return a, nil
		}
		inst, err := s.opts.Discord.ActivityInstance(context.WithoutCancel(ctx), id)
		if err != nil && !errors.Is(err, commands.ErrUnknownInstance) {
			return nil, err
		}
		a := &instanceAnswer{inst: inst, err: err, at: s.opts.Now()}
		is.put(id, a)
		return a, nil
	})
	if err != nil {
		return commands.ActivityInstance{}, err
	}
	a := v.(*instanceAnswer)
	return a.inst, a.err
}

func (is *instances) put(id string, a *instanceAnswer) {
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.m == nil {
		is.m = map[string]*instanceAnswer{}
	}
	if len(is.m) >= maxInstancesKept {
		for k, old := range is.m {
			if a.at.Sub(old.at) > instanceUnknownKept {
				delete(is.m, k)
			}
		}
		for k := range is.m {
			if len(is.m) < maxInstancesKept {
				break
			}
			delete(is.m, k)
		}
	}
	is.m[id] = a
}

// inInstance says whether Discord lists user in the instance: from an
// answer up to instanceFresh old, asked again if that one does not list
// them and is older than recheck. An unknown instance lists nobody; a
// failure to ask is returned.
func (s *Server) inInstance(ctx context.Context, id, user string, recheck time.Duration) (bool, error) {
	inst, err := s.lookupInstance(ctx, id, instanceFresh)
	if err == nil && slices.Contains(inst.Users, user) {
		return true, nil
	}
	if err != nil && !errors.Is(err, commands.ErrUnknownInstance) {
		return false, err
	}
	inst, err = s.lookupInstance(ctx, id, recheck)
	if errors.Is(err, commands.ErrUnknownInstance) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return slices.Contains(inst.Users, user), nil
}
