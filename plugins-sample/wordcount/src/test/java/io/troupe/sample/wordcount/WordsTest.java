package io.troupe.sample.wordcount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Deterministic tests of {@link Words}. Threading: JUnit's thread only. */
class WordsTest {

    @Test
    void emptyTextHasNoWords() {
        assertEquals(0, Words.count(""));
    }

    @Test
    void whitespaceAloneHasNoWords() {
        assertEquals(0, Words.count(" \t\n\r\u000B\f  "));
    }

    @Test
    void wordsAreMaximalRunsOfNonWhitespace() {
        assertEquals(3, Words.count("a b c"));
        assertEquals(3, Words.count("  alpha\t\tbeta\n\ngamma  "));
        assertEquals(1, Words.count("don't-stop,please!"));
    }

    @Test
    void unicodeSpacesSeparateWords() {
        // em space, ideographic space, ogham space mark, line separator
        assertEquals(5, Words.count("a\u2003b\u3000c\u1680d\u2028e"));
    }

    @Test
    void noBreakSpacesJoinWordsAsCharacterIsWhitespaceSays() {
        assertEquals(1, Words.count("a\u00A0b\u2007c\u202Fd"));
    }

    @Test
    void supplementaryCharactersAreCountedOnceAndNeverSplitAWord() {
        assertEquals(2, Words.count("\uD83D\uDE00\uD83D\uDE00 \uD835\uDC00x"));
    }

    @Test
    void accentedAndCjkTextCounts() {
        assertEquals(3, Words.count("café naïve 日本語"));
    }
}
