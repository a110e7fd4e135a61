// Package ops is what operating a running bot needs: the health endpoint
// the platform polls, hot copies of the database served to this machine
// over the same address, and the watchdog that stops a process whose
// Discord gateway stays down.
package ops
