package io.troupe.ops.console;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The last lines of the log file ({@code <troupe.home>/log/troupe.log}, where the host's logger writes),
 * read backwards from its end in blocks, so that the cost follows the lines asked for, not the file's size.
 * {@code GET /console/api/log?lines=N} answers:
 *
 * <pre>
 * {"file": "/opt/troupe/log/troupe.log", "exists": true, "lines": ["2026-12-02 ... INFO ...", ...]}
 * </pre>
 *
 * oldest line first, at most {@value #MAX_LINES} lines and {@value #MAX_BYTES} bytes (a longer tail starts at a
 * line boundary inside the limit). The last line is left out while the logger has not finished it.
 *
 * <p><b>Threading:</b> immutable; any thread. Each read opens the file on its own, so a roll of the log (the
 * file renamed to {@code troupe.log.1}) between two reads is harmless.
 */
final class LogTail {

    /** Lines answered unless asked for another number. */
    static final int DEFAULT_LINES = 200;
    /** The most lines one answer holds. */
    static final int MAX_LINES = 2000;
    /** The most bytes read from the end. */
    static final int MAX_BYTES = 1 << 20;

    private static final int BLOCK = 8192;

    private final Path file;

    /** @param file the log file, or null when there is none (no {@code troupe.home}) */
    LogTail(Path file) {
        this.file = file;
    }

    /** The log file, or null. */
    Path file() {
        return file;
    }

    /**
     * The last {@code count} complete lines, oldest first; empty when the file does not exist.
     *
     * @throws IllegalArgumentException when {@code count} is not between 1 and {@value #MAX_LINES}
     * @throws IOException              when the file exists but cannot be read
     */
    List<String> lines(int count) throws IOException {
        if (count < 1 || count > MAX_LINES) {
            throw new IllegalArgumentException("lines must be between 1 and " + MAX_LINES + ", not " + count);
        }
        if (file == null) {
            return List.of();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return lines(channel, count);
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    private static List<String> lines(FileChannel channel, int count) throws IOException {
        long size = channel.size();
        long limit = Math.max(0, size - MAX_BYTES);
        long start = size;
        int newlines = 0;
        ByteBuffer block = ByteBuffer.allocate(BLOCK);
        long cut = -1; // the position just after the newline before the first line kept
        long end = size; // the end of the last complete line
        boolean endFound = false;
        scan:
        while (start > limit) {
            int length = (int) Math.min(BLOCK, start - limit);
            start -= length;
            block.clear().limit(length);
            readFully(channel, block, start);
            for (int i = length - 1; i >= 0; i--) {
                if (block.get(i) != '\n') {
                    continue;
                }
                long position = start + i;
                if (!endFound) {
                    end = position + 1;
                    endFound = true;
                    continue;
                }
                if (++newlines == count) {
                    cut = position + 1;
                    break scan;
                }
            }
        }
        if (!endFound) {
            return List.of(); // not one complete line yet
        }
        if (cut < 0) {
            cut = start; // the start of the file, or of the byte limit
            if (start > 0) {
                cut = afterNextNewline(channel, start, end);
            }
        }
        int bytes = (int) (end - cut);
        ByteBuffer text = ByteBuffer.allocate(bytes);
        readFully(channel, text, cut);
        String all = new String(text.array(), 0, bytes, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(all.split("\n", -1)));
        lines.remove(lines.size() - 1); // after the last newline
        lines.replaceAll(line -> line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        return lines;
    }

    /** Inside the byte limit, the first line begins after the first newline. */
    private static long afterNextNewline(FileChannel channel, long from, long end) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(BLOCK);
        for (long position = from; position < end; position += BLOCK) {
            one.clear().limit((int) Math.min(BLOCK, end - position));
            readFully(channel, one, position);
            for (int i = 0; i < one.limit(); i++) {
                if (one.get(i) == '\n') {
                    return position + i + 1;
                }
            }
        }
        return end;
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, at);
            if (read < 0) {
                throw new IOException("the log file shrank while it was read at " + at);
            }
            at += read;
        }
    }
}
