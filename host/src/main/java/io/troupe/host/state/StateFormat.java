package io.troupe.host.state;

/**
 * The vocabulary of the state format, version {@value #VERSION}: the header and one tag byte per kind of
 * value. The layout each tag introduces is drawn in {@link StateCodec} and in {@code docs/state-format.md}.
 * A tag's number and meaning never change once released; a new kind of value gets a new tag and a new
 * version.
 *
 * <p><b>Threading:</b> constants only.
 */
final class StateFormat {

    /** The first two bytes of every encoded state: 'T', 'S'. */
    static final byte MAGIC_0 = 'T';
    static final byte MAGIC_1 = 'S';
    /** The version this code writes, and the highest it reads. */
    static final int VERSION = 1;
    /** Magic and version. */
    static final int HEADER_LENGTH = 3;

    /** Deeper nesting than this is refused, when writing and when reading. */
    static final int MAX_DEPTH = 512;

    static final int NULL = 0x00;
    static final int FALSE = 0x01;
    static final int TRUE = 0x02;
    static final int BYTE = 0x03;
    static final int SHORT = 0x04;
    static final int INT = 0x05;
    static final int LONG = 0x06;
    static final int FLOAT = 0x07;
    static final int DOUBLE = 0x08;
    static final int CHAR = 0x09;
    static final int STRING = 0x0A;
    static final int BIG_INTEGER = 0x0B;
    static final int BIG_DECIMAL = 0x0C;

    static final int BYTE_ARRAY = 0x10;
    static final int BOOLEAN_ARRAY = 0x11;
    static final int SHORT_ARRAY = 0x12;
    static final int INT_ARRAY = 0x13;
    static final int LONG_ARRAY = 0x14;
    static final int FLOAT_ARRAY = 0x15;
    static final int DOUBLE_ARRAY = 0x16;
    static final int CHAR_ARRAY = 0x17;
    static final int OBJECT_ARRAY = 0x18;
    static final int TYPED_ARRAY = 0x19;

    static final int LIST = 0x20;
    static final int SET = 0x21;
    static final int MAP = 0x22;
    static final int OPTIONAL_EMPTY = 0x23;
    static final int OPTIONAL = 0x24;

    static final int INSTANT = 0x30;
    static final int DURATION = 0x31;
    static final int UUID = 0x32;
    static final int ENUM = 0x33;

    static final int MESSAGE = 0x40;
    static final int FAILURE = 0x41;

    private StateFormat() {
    }
}
