package io.troupe.sample.wordcount;

/**
 * Counts words: maximal runs of code points that are not {@linkplain Character#isWhitespace(int)
 * whitespace}. No-break spaces (U+00A0, U+2007, U+202F) are not whitespace by that definition, so they
 * join words.
 *
 * <p><b>Threading:</b> stateless; call it from any thread.
 */
final class Words {

    private Words() {
    }

    /** The number of words in {@code text}; {@code 0} for empty or all-whitespace text. */
    static long count(CharSequence text) {
        long words = 0;
        boolean inWord = false;
        int i = 0;
        int length = text.length();
        while (i < length) {
            int codePoint = Character.codePointAt(text, i);
            boolean whitespace = Character.isWhitespace(codePoint);
            if (!whitespace && !inWord) {
                words++;
            }
            inWord = !whitespace;
            i += Character.charCount(codePoint);
        }
        return words;
    }
}
