package web_test

import (
	"testing"

	"conductor/internal/pgtest"
)

// The tests of several processes on one PostgreSQL database share a
// throwaway cluster (internal/pgtest), started on first use.
func TestMain(m *testing.M) { pgtest.Main(m) }
