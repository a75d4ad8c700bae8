package io.troupe.server.session;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.troupe.protocol.Frame;

class AnswerBatchTest {

    private final ManualConnection connection = new ManualConnection();
    private final AnswerBatch batch = new AnswerBatch(connection);

    private static Frame reply(long corrId, int size) {
        return Frame.reply(corrId, "echo", new byte[size]);
    }

    private List<Long> writtenCorrIds() {
        return connection.written().stream().map(Frame::corrId).toList();
    }

    @Test
    void answersFromAnotherThreadAreWrittenByTheLoopInOneWriteInOrder() throws Exception {
        Thread worker = new Thread(() -> {
            for (long id = 1; id <= 3; id++) {
                batch.add(reply(id, 10));
            }
        });
        worker.start();
        worker.join(10_000);

        assertEquals(List.of(), connection.written(), "nothing is written off the loop");
        assertEquals(1, connection.queuedTasks(), "one flush task for the burst");
        connection.runTasks();
        assertEquals(List.of(1L, 2L, 3L), writtenCorrIds());
        assertEquals(1, connection.writes());
        assertEquals("echo", connection.written().get(0).name());
    }

    @Test
    void aLargeAnswerIsWrittenOnItsOwnAndKeepsItsPlace() {
        batch.add(reply(1, 10));
        batch.add(reply(2, AnswerBatch.MAX_BATCHED_FRAME_BYTES + 1));
        batch.add(reply(3, 10));

        connection.runTasks();

        assertEquals(List.of(1L, 2L, 3L), writtenCorrIds());
        assertEquals(3, connection.writes());
        assertEquals(AnswerBatch.MAX_BATCHED_FRAME_BYTES + 1, connection.written().get(1).content().length);
    }

    @Test
    void smallAnswersAddingUpToMoreThanALargeOneAreAllWrittenInOneBuffer() {
        int size = 200;
        int count = 2 * AnswerBatch.MAX_BATCHED_FRAME_BYTES / size; // fewer than one flush takes
        assertTrue(count < AnswerBatch.MAX_FRAMES_PER_FLUSH);
        for (long id = 1; id <= count; id++) {
            batch.add(reply(id, size));
        }

        connection.runTasks();

        assertEquals(LongStream.rangeClosed(1, count).boxed().toList(), writtenCorrIds());
        assertEquals(1, connection.writes(), "small frames stay batched whatever their sum");
        assertEquals(0, connection.groups(), "no frame went out on its own");
    }

    @Test
    void aLargeAnswerLeavesAsHeaderContentAndCrcWithItsContentNotCopied() {
        Frame large = reply(9, AnswerBatch.MAX_BATCHED_FRAME_BYTES + 1);
        batch.add(large);

        connection.runTasks();

        assertEquals(List.of(large), connection.written());
        assertEquals(1, connection.groups());
        assertSame(large.content(), connection.lastGroup()[1].array(), "the reply's own array, wrapped");
    }

    @Test
    void moreAnswersThanOneFlushTakesAreLeftToAFlushScheduledAtOnce() {
        int count = AnswerBatch.MAX_FRAMES_PER_FLUSH + 44;
        for (long id = 1; id <= count; id++) {
            batch.add(reply(id, 1));
        }

        connection.runTasks();

        assertEquals(IntStream.rangeClosed(1, count).mapToObj(Long::valueOf).toList(), writtenCorrIds());
        assertEquals(2, connection.writes());
    }

    @Test
    void aFlushOnTheLoopWritesWhatIsQueuedAndTheScheduledTaskFindsNothingMore() {
        batch.add(Frame.reply(7, "echo", "x".getBytes(UTF_8)));

        batch.flush();
        assertEquals(List.of(7L), writtenCorrIds());
        connection.runTasks();

        assertEquals(1, connection.writes());
    }

    @Test
    void clearDropsTheQueuedAnswers() {
        batch.add(reply(1, 1));

        batch.clear();
        connection.runTasks();

        assertTrue(connection.written().isEmpty());
    }
}
