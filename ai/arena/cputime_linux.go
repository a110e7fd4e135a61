package arena

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPU is CLOCK_THREAD_CPUTIME_ID: the calling thread's CPU time,
// to the nanosecond (getrusage counts in scheduler ticks).
const clockThreadCPU = 3

// threadCPU is the CPU time the calling OS thread has used; the arena's
// workers lock their goroutine to a thread, so a decision's CPU time is
// the difference of two readings. It tells a decision's cost apart from
// the load of the machine it ran on.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPU, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
