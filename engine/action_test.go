package engine

import (
	"testing"

	"conductor/data"
)

func TestActionEqual(t *testing.T) {
	move := Action{Kind: ActMovePassenger, City: 3, Path: []data.TrackID{1, 2}}
	same := Action{Kind: ActMovePassenger, City: 3, Path: []data.TrackID{1, 2}}
	if !move.Equal(same) || !Draw(2).Equal(Draw(2)) {
		t.Fatal("equal actions differ")
	}
	for _, other := range []Action{
		{Kind: ActMovePassenger, City: 3, Path: []data.TrackID{1, 5}},
		{Kind: ActMovePassenger, City: 3, Path: []data.TrackID{1}},
		{Kind: ActMovePassenger, City: 4, Path: []data.TrackID{1, 2}},
		Draw(2),
	} {
		if move.Equal(other) {
			t.Errorf("%+v equals %+v", move, other)
		}
	}
	if Draw(1).Equal(Draw(DeckSlot)) || KeepTickets(0).Equal(KeepTickets(1)) {
		t.Error("actions of one kind with other fields are equal")
	}
}
