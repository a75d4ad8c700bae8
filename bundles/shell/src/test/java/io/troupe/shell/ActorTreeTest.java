package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorInfo;
import io.troupe.api.MailboxOverflow;

/**
 * The actor table: tree order, indentation, orphans, empty snapshots.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ActorTreeTest {

    @Test
    void printsChildrenIndentedUnderTheirParentsOrderedById() {
        List<ActorInfo> snapshot = List.of(
                new ActorInfo(7, 0, "wordcount", "default", "wordcount", 0, 1, 0),
                new ActorInfo(12, 7, "chunk-2", "default", "wordcount.chunk", 4, 120, 0),
                new ActorInfo(3, 0, "echo", "default", "echo", 0, 2, 0),
                new ActorInfo(9, 7, "chunk-1", "default", "wordcount.chunk", 0, 3, 1, 100,
                        MailboxOverflow.DROP_OLDEST, 0, 17),
                new ActorInfo(1, 0, "guardian", "", "", 0, 0, 0));

        assertEquals(String.join("\n",
                "ID  NAME       TENANT   ORIGIN           MAILBOX  PROCESSED  FAILURES  REJECTED  DROPPED",
                "1   guardian   -        -                      0          0         0         0        0",
                "3   echo       default  echo                   0          2         0         0        0",
                "7   wordcount  default  wordcount              0          1         0         0        0",
                "9     chunk-1  default  wordcount.chunk        0          3         1         0       17",
                "12    chunk-2  default  wordcount.chunk        4        120         0         0        0",
                ""), print(snapshot));
    }

    @Test
    void printsAnActorWhoseParentIsMissingFromTheSnapshotAsARoot() {
        List<ActorInfo> snapshot = List.of(
                new ActorInfo(5, 4, "orphan", "t", "x", 0, 0, 0),
                new ActorInfo(6, 5, "child", "t", "x", 0, 0, 0));

        List<ActorTree.Node> nodes = new ActorTree(snapshot).depthFirst();

        assertEquals(List.of(5L, 6L), nodes.stream().map(node -> node.info().id()).toList());
        assertEquals(List.of(0, 1), nodes.stream().map(ActorTree.Node::depth).toList());
    }

    @Test
    void saysSoWhenNoActorIsAlive() {
        assertEquals("no live actors\n", print(List.of()));
    }

    private static String print(List<ActorInfo> snapshot) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new ActorTree(snapshot).print(out);
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
