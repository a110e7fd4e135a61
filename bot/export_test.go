package bot

import "time"

// FastRegistrationRetries makes registration retry at once, for tests.
func FastRegistrationRetries() (restore func()) {
	old := registerRetry
	registerRetry = time.Millisecond
	return func() { registerRetry = old }
}
