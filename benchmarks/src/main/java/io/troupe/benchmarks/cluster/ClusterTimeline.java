package io.troupe.benchmarks.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * When things happened in a run of {@link ClusterSuite}, in seconds since the load started: the start of
 * the measured part, each event (a node starting, joined, stopping, gone) with the number of nodes serving
 * after it, and the end.
 *
 * <p><b>Threading:</b> the suite thread.
 */
final class ClusterTimeline {

    /** One event. */
    record Event(double at, String label, int nodes) {
    }

    private final List<Event> events = new ArrayList<>();
    private double measuredFrom;
    private double end;

    /** The measured part begins at {@code at}, with {@code nodes} nodes. */
    void measured(double at, int nodes) {
        measuredFrom = at;
        events.add(new Event(at, "measured from here", nodes));
    }

    void event(double at, String label, int nodes) {
        events.add(new Event(at, label, nodes));
    }

    void end(double at) {
        end = at;
    }

    double measuredFrom() {
        return measuredFrom;
    }

    double end() {
        return end;
    }

    List<Event> events() {
        return List.copyOf(events);
    }

    /** The number of nodes serving during second {@code second} (as of the last event before its end). */
    int nodesAt(int second) {
        int nodes = 0;
        for (Event event : events) {
            if (event.at() < second + 1) {
                nodes = event.nodes();
            }
        }
        return nodes;
    }

    /** The labels of the events in second {@code second}. */
    List<String> eventsIn(int second) {
        return events.stream().filter(event -> event.at() >= second && event.at() < second + 1)
                .map(Event::label).toList();
    }

    /** The time of the first event whose label ends with {@code suffix}. */
    double at(String suffix) {
        return events.stream().filter(event -> event.label().endsWith(suffix)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no event '" + suffix + "'")).at();
    }
}
