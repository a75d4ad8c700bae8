package io.troupe.shell;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.troupe.api.ActorInfo;

/**
 * Prints a snapshot of live actors as a table whose name column is indented by depth in the
 * parent/child tree:
 *
 * <pre>
 * ID  NAME             TENANT   ORIGIN           MAILBOX  PROCESSED  FAILURES
 * 3   echo             default  echo                   0          2         0
 * 7   wordcount        default  wordcount              0          1         0
 * 9     chunk-1        default  wordcount.chunk        4         12         1
 * </pre>
 *
 * Siblings are ordered by id. An actor whose parent is not in the snapshot (the snapshot is not
 * atomic, so a parent may just have stopped) is printed as a root rather than dropped.
 *
 * <p><b>Threading:</b> stateless and immutable; an instance may be shared by any number of threads.
 */
final class ActorTree {

    private static final String INDENT = "  ";
    private static final String[] HEADER = {"ID", "NAME", "TENANT", "ORIGIN", "MAILBOX", "PROCESSED", "FAILURES",
        "REJECTED", "DROPPED"};
    private static final boolean[] RIGHT_ALIGNED = {false, false, false, false, true, true, true, true, true};

    private final List<ActorInfo> actors;

    ActorTree(List<ActorInfo> actors) {
        this.actors = List.copyOf(actors);
    }

    /** Prints the table, or {@code no live actors} when the snapshot is empty. */
    void print(PrintStream out) {
        if (actors.isEmpty()) {
            out.println("no live actors");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Node node : depthFirst()) {
            rows.add(row(node.info, node.depth));
        }
        int[] widths = widths(rows);
        for (String[] row : rows) {
            out.println(format(row, widths));
        }
    }

    /** The actors in tree order (each parent before its children), with their depths. */
    List<Node> depthFirst() {
        Map<Long, ActorInfo> byId = new HashMap<>();
        Map<Long, List<ActorInfo>> children = new HashMap<>();
        for (ActorInfo info : actors) {
            byId.put(info.id(), info);
        }
        List<ActorInfo> roots = new ArrayList<>();
        for (ActorInfo info : actors) {
            if (info.parentId() == 0 || !byId.containsKey(info.parentId()) || info.parentId() == info.id()) {
                roots.add(info);
            } else {
                children.computeIfAbsent(info.parentId(), id -> new ArrayList<>()).add(info);
            }
        }
        Comparator<ActorInfo> byIdOrder = Comparator.comparingLong(ActorInfo::id);
        roots.sort(byIdOrder);
        children.values().forEach(list -> list.sort(byIdOrder));

        List<Node> ordered = new ArrayList<>(actors.size());
        Set<Long> visited = new HashSet<>();
        for (ActorInfo root : roots) {
            visit(root, 0, children, visited, ordered);
        }
        return ordered;
    }

    private static void visit(ActorInfo info, int depth, Map<Long, List<ActorInfo>> children,
                              Set<Long> visited, List<Node> ordered) {
        if (!visited.add(info.id())) {
            return; // a corrupt snapshot with a cycle must not loop forever
        }
        ordered.add(new Node(info, depth));
        for (ActorInfo child : children.getOrDefault(info.id(), List.of())) {
            visit(child, depth + 1, children, visited, ordered);
        }
    }

    private static String[] row(ActorInfo info, int depth) {
        return new String[] {
            Long.toString(info.id()),
            INDENT.repeat(depth) + info.name(),
            info.tenant() == null || info.tenant().isEmpty() ? "-" : info.tenant(),
            info.origin() == null || info.origin().isEmpty() ? "-" : info.origin(),
            Integer.toString(info.mailboxDepth()),
            Long.toString(info.processed()),
            Long.toString(info.failures()),
            Long.toString(info.rejected()),
            Long.toString(info.dropped())
        };
    }

    private static int[] widths(List<String[]> rows) {
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        return widths;
    }

    private static String format(String[] row, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            if (i > 0) {
                line.append("  ");
            }
            String cell = row[i];
            String padding = " ".repeat(widths[i] - cell.length());
            if (RIGHT_ALIGNED[i]) {
                line.append(padding).append(cell);
            } else if (i == row.length - 1) {
                line.append(cell);
            } else {
                line.append(cell).append(padding);
            }
        }
        return line.toString();
    }

    /** One actor and its depth in the tree (0 for roots). */
    record Node(ActorInfo info, int depth) {
    }
}
