// Package ops is what operating a running bot needs: the health endpoint
// the platform polls, hot copies of the database served over the same
// address to a caller on this machine with the backup token, the checks a
// bot makes at start (a writable database, the shard its database serves),
// moving servers between shard databases when the shard count changes
// (conductor reshard), and the watchdog that stops a process whose Discord
// gateway stays down.
package ops
