package io.troupe.host.log;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The records of the log stress tests and the verdict on what the logger wrote. A record is
 * {@value #RECORD_BYTES} bytes: its producer's letter repeated, its number, a line end; large enough that a few
 * of them overflow the queue's first segment ({@link RecordQueue#INITIAL_BYTES}).
 *
 * <p><b>Threading:</b> stateless; records are made by the producers, the verdict by the arbiter.
 */
final class LogRecords {

    static final int RECORD_BYTES = 1500;

    private LogRecords() {
    }

    static byte[] record(char producer, char number) {
        byte[] bytes = new byte[RECORD_BYTES];
        Arrays.fill(bytes, (byte) producer);
        bytes[RECORD_BYTES - 2] = (byte) number;
        bytes[RECORD_BYTES - 1] = '\n';
        return bytes;
    }

    /**
     * {@code "written"} when exactly the {@code expected} records (as "a1", "b2", ...; one producer's in
     * sending order) were written, each whole and once, in each producer's order, none dropped; else what went
     * wrong.
     */
    static String verdict(String written, long dropped, String... expected) {
        if (dropped != 0) {
            return dropped + " records dropped";
        }
        List<String> names = new ArrayList<>();
        for (String line : written.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            char producer = line.charAt(0);
            boolean whole = line.length() == RECORD_BYTES - 1
                    && line.chars().limit(RECORD_BYTES - 2).allMatch(c -> c == producer);
            if (!whole) {
                return "a torn record of " + line.length() + " bytes";
            }
            names.add("" + producer + line.charAt(RECORD_BYTES - 2));
        }
        if (names.size() != expected.length || !names.containsAll(List.of(expected))) {
            return "records written: " + names;
        }
        for (int i = 0; i < expected.length; i++) {
            for (int j = i + 1; j < expected.length; j++) {
                boolean sameProducer = expected[i].charAt(0) == expected[j].charAt(0);
                if (sameProducer && names.indexOf(expected[i]) > names.indexOf(expected[j])) {
                    return "records written out of order: " + names;
                }
            }
        }
        return "written";
    }
}
