package present

import (
	"errors"

	"conductor/imaging"
)

// ReplayMaxBytes bounds a replay GIF. Discord refuses attachments over
// 10 MiB from bots, webhooks and interaction responses (its default upload
// limit since January 2025, discord-api-docs #7312, whatever a server's
// boosts); 8 MiB leaves room for the rest of the request.
const ReplayMaxBytes = 8 << 20

// ErrReplayTooBig is a replay that stays too big even with few frames.
var ErrReplayTooBig = errors.New("present: the replay is too big even shortened")

// minReplayFrames is the fewest pictures a shortened replay keeps.
const minReplayFrames = 8

// ReplayGIF is an animated replay: Data shows Frames pictures, one scene
// in Every (1: all of them).
type ReplayGIF struct {
	Data          []byte
	Frames, Every int
}

// GIFMaker makes an animated GIF of scenes (imaging.Renderer).
type GIFMaker interface {
	Replay(frames []imaging.Scene) ([]byte, error)
}

// Replay is the animated GIF of a game, one frame a scene, at most
// maxBytes long. When the whole game is longer, it keeps one frame every
// Every (the first and the last always), Every as small as fits.
func Replay(r GIFMaker, frames []imaging.Scene, maxBytes int) (ReplayGIF, error) {
	every, first := 1, 0
	for {
		kept := sample(frames, every)
		gif, err := r.Replay(kept)
		if err != nil {
			return ReplayGIF{}, err
		}
		if len(gif) <= maxBytes {
			return ReplayGIF{Data: gif, Frames: len(kept), Every: every}, nil
		}
		if first == 0 {
			one, err := r.Replay(frames[:1])
			if err != nil {
				return ReplayGIF{}, err
			}
			first = len(one)
		}
		if len(kept) <= minReplayFrames || first >= maxBytes {
			return ReplayGIF{}, ErrReplayTooBig
		}
		// The first frame is a whole picture, each later one what changed:
		// keep as many later frames as their mean size lets fit, with a
		// margin (frames further apart differ more).
		perFrame := max(1, (len(gif)-first)/(len(kept)-1))
		fit := max(1, (maxBytes-first)*9/10/perFrame)
		next := max(every+1, (len(frames)+fit-1)/fit)
		if len(sample(frames, next)) < minReplayFrames {
			next = max(every+1, (len(frames)-1)/(minReplayFrames-1))
		}
		every = next
	}
}

// sample keeps frames 0, every, 2×every… and the last.
func sample(frames []imaging.Scene, every int) []imaging.Scene {
	if every <= 1 {
		return frames
	}
	var out []imaging.Scene
	for i := 0; i < len(frames); i += every {
		out = append(out, frames[i])
	}
	if (len(frames)-1)%every != 0 {
		out = append(out, frames[len(frames)-1])
	}
	return out
}
