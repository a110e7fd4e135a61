//go:build !linux

package arena

import "time"

// threadCPU is not measured on this system: CPU times read zero.
func threadCPU() time.Duration { return 0 }
