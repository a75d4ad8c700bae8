package io.troupe.sample.wordcount;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a text into consecutive chunks of at most {@code maxBytes} UTF-8 bytes without ever cutting a
 * word, so that the word counts of the chunks add up to the word count of the text.
 *
 * <p>A cut is only made at a boundary that touches whitespace on at least one side (and never inside a
 * surrogate pair), which a word, being a run of non-whitespace, never contains. Each chunk ends at the
 * last such boundary that keeps it within the limit. A word longer than the limit has no such boundary
 * inside it: it becomes a chunk of its own that exceeds the limit, rather than being split.
 *
 * <pre>
 *   maxBytes = 8:   "one two three four"  --&gt;  "one two " | "three " | "four"
 *   maxBytes = 4:   "ab cdefghij kl"      --&gt;  "ab " | "cdefghij" | " kl"
 * </pre>
 *
 * <p><b>Threading:</b> immutable; share it between threads freely.
 */
final class ChunkSplitter {

    private final int maxBytes;

    /** @param maxBytes the largest chunk in UTF-8 bytes, at least 1 */
    ChunkSplitter(int maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be at least 1, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The chunks of {@code text}, in order; they concatenate to {@code text}. Empty for empty text. */
    List<String> split(String text) {
        List<String> chunks = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = chunkEnd(text, start);
            chunks.add(text.substring(start, end));
            start = end;
        }
        return chunks;
    }

    /** Where the chunk starting at {@code start} ends; always greater than {@code start}. */
    private int chunkEnd(String text, int start) {
        long bytes = 0;          // UTF-8 size of text[start, i)
        int lastCut = start;     // the last allowed cut within the limit, start if none yet
        boolean previousWhitespace = false;
        int i = start;
        while (i < text.length()) {
            int codePoint = text.codePointAt(i);
            boolean whitespace = Character.isWhitespace(codePoint);
            if (i > start && (previousWhitespace || whitespace)) {
                if (bytes > maxBytes) {
                    return i; // the end of a word longer than the limit: no earlier cut existed
                }
                lastCut = i;
            }
            bytes += utf8Length(codePoint);
            if (bytes > maxBytes && lastCut > start) {
                return lastCut;
            }
            previousWhitespace = whitespace;
            i += Character.charCount(codePoint);
        }
        return text.length();
    }

    private static int utf8Length(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        return codePoint < 0x10000 ? 3 : 4;
    }
}
