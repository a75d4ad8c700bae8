package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A deterministic text with a known number of words, mixing ASCII, accented, CJK and supplementary
 * characters with several kinds of whitespace (including runs of it), so that chunk boundaries land
 * in every kind of place.
 *
 * <p><b>Threading:</b> immutable.
 */
final class SampleText {

    private static final String[] WORDS = {"troupe", "naïve", "日本語", "\uD83D\uDE00", "w", "actors", "façade"};
    private static final String[] SEPARATORS = {" ", "\n", "\t", "  ", "\u2003", " \r\n"};

    private final String text;
    private final long words;

    private SampleText(String text, long words) {
        this.text = text;
        this.words = words;
    }

    /** A text of exactly {@code count} words. */
    static SampleText withWords(int count) {
        StringBuilder text = new StringBuilder(count * 8);
        for (int i = 0; i < count; i++) {
            text.append(WORDS[i % WORDS.length]).append(i % 97);
            text.append(SEPARATORS[i % SEPARATORS.length]);
        }
        return new SampleText(text.toString(), count);
    }

    String text() {
        return text;
    }

    long words() {
        return words;
    }

    int bytes() {
        return text.getBytes(UTF_8).length;
    }
}
