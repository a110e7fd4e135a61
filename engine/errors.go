package engine

import "fmt"

// ErrorCode classifies why an action was refused, so that callers can react
// (for example, answer "not your turn" differently from a bad payment).
type ErrorCode uint8

const (
	ErrNotYourTurn ErrorCode = iota + 1
	ErrWrongPhase
	ErrGameOver
	ErrBadAction  // malformed: unknown track, slot, city…
	ErrNotAllowed // the rules forbid it now (locomotive as second card, double route…)
	ErrCannotAfford
	ErrNotAvailable // nothing to draw, track taken, no station left…
)

// Error is a refused action. Msg says what is wrong and what would work.
type Error struct {
	Code ErrorCode
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
