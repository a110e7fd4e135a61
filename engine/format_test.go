package engine

import "fmt"

func formatAny(v ...any) string { return fmt.Sprint(v...) + "\n" }
