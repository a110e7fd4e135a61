//go:build !linux

package ai

import "time"

// threadCPU is not measured on this system.
func threadCPU() time.Duration { return 0 }

// processCPU is not measured on this system.
func processCPU() time.Duration { return 0 }

func lockThread() func() { return func() {} }
