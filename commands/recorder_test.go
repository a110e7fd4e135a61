package commands

import (
	"fmt"
	"sync"
	"testing"
)

// TestRecorder: the answers are kept in order; the answer is the first
// that is not a follow-up; Answered closes at the first answer; answers
// may come from several goroutines at once.
func TestRecorder(t *testing.T) {
	t.Parallel()
	r := &Recorder{}
	answered := r.Answered()
	select {
	case <-answered:
		t.Fatal("answered before any answer")
	default:
	}
	if _, ok := r.Answer(); ok {
		t.Fatal("an answer before any")
	}
	r.Update(Message{Content: "edited"})
	<-answered
	r.FollowUp(Message{Content: "more"})
	r.Ack()
	r.Choices([]Choice{{Name: "a", Value: "b"}})
	var kinds []AnswerKind
	for _, a := range r.Answers() {
		kinds = append(kinds, a.Kind)
	}
	if fmt.Sprint(kinds) != "[update followup ack choices]" {
		t.Fatalf("kinds %v", kinds)
	}
	if a, ok := r.Answer(); !ok || a.Kind != AnswerUpdate || a.Message.Content != "edited" || a.At.IsZero() {
		t.Fatalf("answer %+v", a)
	}
	if ms := r.Messages(); len(ms) != 2 || ms[0].Content != "edited" || ms[1].Content != "more" {
		t.Fatalf("messages %+v", ms)
	}

	r = &Recorder{}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { r.FollowUp(Message{Content: fmt.Sprint(i)}) })
		wg.Go(func() { r.Answered() })
	}
	wg.Wait()
	<-r.Answered()
	if n := len(r.Messages()); n != 20 {
		t.Fatalf("%d of 20 follow-ups kept", n)
	}
}
