package ai

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the CPU time of the calling OS thread (CLOCK_THREAD_CPUTIME_ID,
// to the nanosecond). A benchmark locks its goroutine to the thread
// (lockThread) and reports the difference of two readings per operation:
// the cost on one core, whatever else the machine runs (ns/op is wall
// time).
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// processCPU is the CPU time of the whole process (getrusage: user and
// system, every thread): with GOMAXPROCS 1 it also counts the garbage
// collector's work, which threadCPU, on the benchmark's thread only, misses.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
