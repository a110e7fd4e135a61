package web

import "sync"

// signals tells who waits for the next event of a key (a table's channel)
// that it happened: each waiter holds a Go channel closed at that event.
// The zero value is ready.
type signals struct {
	mu    sync.Mutex
	waits map[string]chan struct{}
}

// next returns a channel closed at the key's next event.
func (s *signals) next(key string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.waits[key]
	if !ok {
		if s.waits == nil {
			s.waits = map[string]chan struct{}{}
		}
		w = make(chan struct{})
		s.waits[key] = w
	}
	return w
}

// fire wakes those waiting for the key's next event.
func (s *signals) fire(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.waits[key]; ok {
		close(w)
		delete(s.waits, key)
	}
}

// fireAll wakes every waiter, whatever its key.
func (s *signals) fireAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, w := range s.waits {
		close(w)
		delete(s.waits, k)
	}
}
