package io.troupe.benchmarks.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Memory figures from Linux's {@code /proc}: a process's resident set ({@code VmRSS} of
 * {@code /proc/PID/status}), the kernel's slab memory ({@code Slab} of {@code /proc/meminfo}: the socket,
 * file, inode and epoll structures of each connection live there), and the machine's memory.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ProcessMemory {

    private ProcessMemory() {
    }

    /** The resident set of process {@code pid}, in bytes. */
    static long residentBytes(long pid) throws IOException {
        return kilobytes(Path.of("/proc", Long.toString(pid), "status"), "VmRSS:") * 1024;
    }

    /** The kernel's slab memory, in bytes. */
    static long slabBytes() throws IOException {
        return kilobytes(Path.of("/proc/meminfo"), "Slab:") * 1024;
    }

    /** The machine's memory, in bytes. */
    static long totalBytes() throws IOException {
        return kilobytes(Path.of("/proc/meminfo"), "MemTotal:") * 1024;
    }

    private static long kilobytes(Path file, String key) throws IOException {
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith(key)) {
                String[] parts = line.substring(key.length()).trim().split("\\s+");
                return Long.parseLong(parts[0]);
            }
        }
        throw new IOException("no '" + key + "' line in " + file);
    }
}
