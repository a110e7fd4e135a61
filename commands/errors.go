package commands

import "conductor/engine"

// localizeEngineError puts an engine refusal into the user's language: a
// translated headline for its kind, then the engine's precise explanation.
func localizeEngineError(loc string, e *engine.Error) string {
	if lang(loc) == "en" {
		return e.Msg
	}
	head := T(loc, "refused."+errorKind(e.Code))
	return head + "\n" + e.Msg
}

func errorKind(c engine.ErrorCode) string {
	switch c {
	case engine.ErrNotYourTurn:
		return "turn"
	case engine.ErrWrongPhase:
		return "phase"
	case engine.ErrGameOver:
		return "over"
	case engine.ErrCannotAfford:
		return "afford"
	case engine.ErrNotAvailable:
		return "available"
	case engine.ErrNotAllowed:
		return "allowed"
	}
	return "bad"
}
