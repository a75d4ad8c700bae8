package io.troupe.sample.wordcount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Deterministic tests of {@link ChunkSplitter}. Threading: JUnit's thread only. */
class ChunkSplitterTest {

    @Test
    void emptyTextHasNoChunks() {
        assertEquals(List.of(), new ChunkSplitter(8).split(""));
    }

    @Test
    void textWithinTheLimitIsOneChunk() {
        assertEquals(List.of("one two"), new ChunkSplitter(7).split("one two"));
    }

    @Test
    void chunksEndAtTheLastBoundaryBetweenWordsWithinTheLimit() {
        assertEquals(List.of("one two ", "three ", "four"), new ChunkSplitter(8).split("one two three four"));
        assertEquals(List.of("aaa ", "bbb ", "ccc"), new ChunkSplitter(5).split("aaa bbb ccc"));
    }

    @Test
    void aWordLongerThanTheLimitBecomesOneChunkOfItsOwn() {
        assertEquals(List.of("ab ", "cdefghij", " kl"), new ChunkSplitter(4).split("ab cdefghij kl"));
        assertEquals(List.of("abcdefghij"), new ChunkSplitter(4).split("abcdefghij"));
    }

    @Test
    void theLimitIsCountedInUtf8Bytes() {
        // é is two bytes: "éé" is the most that fits in four
        List<String> chunks = new ChunkSplitter(4).split("éé éé");
        assertEquals(List.of("éé", " ", "éé"), chunks);
    }

    @Test
    void surrogatePairsAreNeverCut() {
        String grin = "\uD83D\uDE00"; // four bytes in UTF-8
        List<String> chunks = new ChunkSplitter(5).split(grin + grin + " " + grin);
        assertEquals(List.of(grin + grin, " " + grin), chunks);
    }

    @Test
    void aSplitterNeedsRoomForAtLeastOneByte() {
        assertThrows(IllegalArgumentException.class, () -> new ChunkSplitter(0));
    }

    @Test
    void chunksOfRandomTextsAddUpToTheTextAndItsWordCount() {
        String[] alphabet = {"a", "b", "é", "日", "\uD83D\uDE00", " ", " ", "\t", "\n", "\u2003", "\u00A0"};
        Random random = new Random(20261129L);
        for (int round = 0; round < 2_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(60);
            for (int i = 0; i < length; i++) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            int maxBytes = 1 + random.nextInt(12);
            List<String> chunks = new ChunkSplitter(maxBytes).split(text.toString());

            String context = "text [" + text + "], maxBytes " + maxBytes + ", chunks " + chunks;
            assertEquals(text.toString(), String.join("", chunks), context);
            assertEquals(Words.count(text), chunks.stream().mapToLong(Words::count).sum(), context);
            for (String chunk : chunks) {
                assertTrue(!chunk.isEmpty(), context);
                boolean fits = chunk.getBytes(StandardCharsets.UTF_8).length <= maxBytes;
                boolean isOneCodePointOrOneWord = chunk.codePointCount(0, chunk.length()) == 1
                        || chunk.codePoints().noneMatch(Character::isWhitespace);
                assertTrue(fits || isOneCodePointOrOneWord, "oversized chunk [" + chunk + "] in " + context);
            }
        }
    }

    @Test
    void aLargeTextSplitsIntoChunksOfAtMost64KiB() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            text.append("word").append(i).append(i % 10 == 0 ? '\n' : ' ');
        }
        List<String> chunks = new ChunkSplitter(WordCountActor.CHUNK_BYTES).split(text.toString());
        assertTrue(chunks.size() > 1, "chunks: " + chunks.size());
        for (String chunk : chunks) {
            assertTrue(chunk.getBytes(StandardCharsets.UTF_8).length <= WordCountActor.CHUNK_BYTES);
        }
        assertEquals(100_000, chunks.stream().mapToLong(Words::count).sum());
    }
}
