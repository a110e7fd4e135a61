// Package ops is what operating a running bot needs: its settings from
// the environment (Config), the health endpoint the platform polls, hot
// copies of the database served over the same address to a caller on this
// machine with the backup token, the checks a bot makes at start (a
// writable database, the shard its database serves), the live page's
// listener, the watchdog that stops a process whose Discord gateway stays
// down; and the commands an operator runs by hand: conductor doctor,
// backup, migrate and reshard (moving servers between shard databases when
// the shard count changes).
package ops
