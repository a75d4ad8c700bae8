package io.troupe.benchmarks.tenants;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.troupe.protocol.FrameDecoder;

/**
 * The three ways tenant A misbehaves, each measured against tenant B's steady loop.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
enum Scenario {

    /** Deep pipelines of small requests: 16 connections × 64 in flight × 64 B {@code echo}. */
    FLOOD("flood", "1. A floods") {
        @Override
        LoadShape shape(int maxFrameBytes) {
            return LoadShape.ofSize(16, 64, "echo", 64);
        }
    },
    /** Frames as large as A's {@code maxFrameBytes} allows: 4 connections × 2 in flight of {@code echo}. */
    LARGE("large", "2. A sends large frames") {
        @Override
        LoadShape shape(int maxFrameBytes) {
            return LoadShape.ofSize(4, 2, "echo", largestPayload(maxFrameBytes, "echo"));
        }
    },
    /** A handler that burns 5 ms of CPU per message: 4 connections × 8 in flight of {@code burn "5000"}. */
    BURN("burn", "3. A's handler burns CPU") {
        @Override
        LoadShape shape(int maxFrameBytes) {
            return LoadShape.ofText(4, 8, "burn", "5000");
        }
    };

    private final String id;
    private final String title;

    Scenario(String id, String title) {
        this.id = id;
        this.title = title;
    }

    /** A's load, given the frame limit A's cfg sets. */
    abstract LoadShape shape(int maxFrameBytes);

    /** The name on the command line: flood, large, burn. */
    String id() {
        return id;
    }

    /** The name in the report. */
    String title() {
        return title;
    }

    /** The content that makes a REQUEST to {@code handler} exactly {@code maxFrameBytes} long (the length field). */
    static int largestPayload(int maxFrameBytes, String handler) {
        return maxFrameBytes - FrameDecoder.MIN_LENGTH - handler.length();
    }

    /** Parses {@code flood,large,burn} (any subset, in any order; run in the order given). */
    static List<Scenario> parseList(String text) {
        List<Scenario> scenarios = new ArrayList<>();
        for (String name : text.split(",")) {
            String wanted = name.trim().toLowerCase(Locale.ROOT);
            Scenario found = null;
            for (Scenario scenario : values()) {
                if (scenario.id.equals(wanted)) {
                    found = scenario;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown scenario '" + name + "': use flood, large or burn");
            }
            scenarios.add(found);
        }
        return scenarios;
    }
}
