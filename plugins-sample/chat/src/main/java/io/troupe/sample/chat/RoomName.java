package io.troupe.sample.chat;

import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

/**
 * The name of a chat room: non-empty, at most {@value #MAX_LENGTH} characters (code points), no
 * surrounding whitespace and no line break ({@code \n} or {@code \r}), because a line break ends the
 * room name in a {@code chat.say} request. Names are case-sensitive.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param value the name, already validated
 */
record RoomName(String value) {

    /** The longest room name, in code points. */
    static final int MAX_LENGTH = 200;

    /**
     * @throws TroupeException with code {@link ErrorCode#BAD_REQUEST} if {@code value} breaks a rule above
     */
    RoomName {
        if (value.isEmpty()) {
            throw empty();
        }
        if (!value.strip().equals(value)) {
            throw surroundingWhitespace();
        }
        int length = value.codePointCount(0, value.length());
        if (length > MAX_LENGTH) {
            throw tooLong(length);
        }
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw lineBreak();
        }
    }

    /**
     * The room named by {@code text} with its surrounding whitespace removed.
     *
     * @throws TroupeException with code {@link ErrorCode#BAD_REQUEST} if what remains is not a valid name
     */
    static RoomName parse(String text) {
        return new RoomName(text.strip());
    }

    @Override
    public String toString() {
        return "'" + value + "'";
    }

    private static TroupeException empty() {
        return badRequest("the room name is empty");
    }

    private static TroupeException surroundingWhitespace() {
        return badRequest("the room name must not start or end with whitespace");
    }

    private static TroupeException tooLong(int length) {
        return badRequest("the room name has " + length + " characters; at most " + MAX_LENGTH + " are allowed");
    }

    private static TroupeException lineBreak() {
        return badRequest("the room name must not contain a line break");
    }

    private static TroupeException badRequest(String detail) {
        return new TroupeException(ErrorCode.BAD_REQUEST, detail);
    }
}
