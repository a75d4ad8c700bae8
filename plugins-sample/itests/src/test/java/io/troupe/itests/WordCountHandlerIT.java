package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

import io.troupe.api.DeadLetter;
import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;
import io.troupe.testsupport.Await;

/**
 * The wordcount sample in a real framework: small texts counted on the spot, large ones fanned out to
 * chunk-counting children that are all gone afterwards.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class WordCountHandlerIT extends FrameworkTest {

    private static final String CHUNK_FACTORY = "wordcount.chunk";

    @Inject
    private TroupeRuntime runtime;

    private final Queue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();
    private AutoCloseable deadLetterSubscription;

    @Before
    public void wordcountIsServed() {
        Requests.awaitHandler(runtime, "wordcount");
        Await.until("the runtime knows the factory " + CHUNK_FACTORY,
                () -> runtime.factoryNames().contains(CHUNK_FACTORY),
                () -> "factories " + runtime.factoryNames());
        deadLetterSubscription = runtime.subscribeDeadLetters(deadLetters::add);
    }

    /** Receipts, child stops and replies all reach a live actor: counting leaves no dead letters. */
    @After
    public void noMessageWasLost() throws Exception {
        deadLetterSubscription.close();
        assertTrue("dead letters: " + deadLetters, deadLetters.isEmpty());
    }

    @Test
    public void askingWordcountCountsWords() throws Exception {
        assertEquals("3", count("a b c"));
        assertEquals("0", count(""));
        assertEquals("0", count(" \n\t "));

        SampleText large = SampleText.withWords(60_000); // about 545 KiB: nine chunks or so
        assertTrue("the text must need several chunks: " + large.bytes(), large.bytes() > 4 * 64 * 1024);
        assertEquals(Long.toString(large.words()), count(large.text()));

        assertChunkCountersAreGone();
    }

    @Test
    public void aWordLongerThanAChunkIsCountedOnce() throws Exception {
        String longWord = "x".repeat(200_000);
        assertEquals("1", count(longWord));
        assertEquals("3", count("before " + longWord + " after"));

        assertChunkCountersAreGone();
    }

    @Test
    public void largeRequestsInFlightAtOnceAreEachAnsweredWithTheirOwnCount() throws Exception {
        List<SampleText> texts = List.of(SampleText.withWords(30_000), SampleText.withWords(50_000),
                SampleText.withWords(70_000), SampleText.withWords(40_000));
        List<CompletionStage<Object>> replies = new ArrayList<>();
        for (SampleText text : texts) {
            replies.add(runtime.ask(TroupeRuntime.DEFAULT_TENANT, Message.of("wordcount", text.text()),
                    Requests.ASK_TIMEOUT));
        }
        for (int i = 0; i < texts.size(); i++) {
            assertEquals("request " + i, Long.toString(texts.get(i).words()),
                    text(Requests.await(replies.get(i))));
        }

        assertChunkCountersAreGone();
    }

    private String count(String text) throws Exception {
        return text(Requests.ask(runtime, Message.of("wordcount", text)));
    }

    private static String text(Object reply) {
        assertTrue("reply should be bytes, was " + reply, reply instanceof byte[]);
        return new String((byte[]) reply, UTF_8);
    }

    private void assertChunkCountersAreGone() {
        Await.until("no actor from " + CHUNK_FACTORY + " is alive",
                () -> runtime.actors().stream().noneMatch(actor -> CHUNK_FACTORY.equals(actor.origin())),
                () -> runtime.actors().stream()
                        .filter(actor -> CHUNK_FACTORY.equals(actor.origin()))
                        .map(Object::toString)
                        .collect(Collectors.joining(", ")));
    }
}
