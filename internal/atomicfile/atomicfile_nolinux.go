//go:build !linux

package atomicfile

import "os"

// writeUnnamed: only Linux has O_TMPFILE. Elsewhere every write goes
// through a named temporary file in the same directory (writeNamed), the
// way the Linux tests also run with namedOnly; a killed write's file is
// removed by the sweep of the next write once StaleAfter old.
func writeUnnamed(abs, data string, prev os.FileInfo) error {
	return errNoTmpfile
}
