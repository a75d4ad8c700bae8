package io.troupe.host.mailbox;

import java.util.Arrays;
import java.util.List;

/**
 * The verdict on what a consumer received in a stress trial: {@code "delivered"} when every expected message
 * came exactly once, the ones of one producer (given in sending order) in that order, and nothing is left; else
 * a description of what went wrong, which jcstress reports as a FORBIDDEN outcome.
 *
 * <p><b>Threading:</b> stateless; called by the arbiter.
 */
final class MessageTrace {

    private MessageTrace() {
    }

    /**
     * @param received the messages in the order received, separated by blanks
     * @param left     what the mailbox still counts
     * @param expected every message sent, those of one producer in sending order
     */
    static String verdict(String received, int left, String... expected) {
        List<String> got = Arrays.asList(received.trim().split(" "));
        if (received.isBlank()) {
            got = List.of();
        }
        for (String message : expected) {
            long times = got.stream().filter(message::equals).count();
            if (times != 1) {
                return message + " received " + times + " times: " + received.trim();
            }
        }
        if (got.size() != expected.length) {
            return "received " + got.size() + " messages for " + expected.length + " sent: " + received.trim();
        }
        for (int i = 0; i < expected.length; i++) {
            for (int j = i + 1; j < expected.length; j++) {
                if (sameProducer(expected[i], expected[j]) && got.indexOf(expected[i]) > got.indexOf(expected[j])) {
                    return expected[j] + " overtook " + expected[i] + ": " + received.trim();
                }
            }
        }
        return left == 0 ? "delivered" : "mailbox counts " + left + " left after every message was polled";
    }

    /** Messages of one producer share their first letter (a1, a2). */
    private static boolean sameProducer(String one, String other) {
        return one.charAt(0) == other.charAt(0);
    }
}
