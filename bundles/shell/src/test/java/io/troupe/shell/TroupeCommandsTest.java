package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;
import io.troupe.testsupport.StubRuntime;

/**
 * The commands against a hand-written runtime: reply formats, error lines, an absent runtime.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; the stub answers synchronously.
 */
class TroupeCommandsTest {

    private final StubRuntime runtime = new StubRuntime()
            .handler("echo", message -> message.content())
            .handler("upper", message -> message.text().toUpperCase())
            .handler("count", message -> message.text().split(" ").length);

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void askPrintsAByteArrayReplyDecodedAsUtf8() {
        new TroupeCommands(runtime).ask(out, TroupeRuntime.DEFAULT_TENANT, "echo", "grüße");

        assertEquals("grüße\n", printed());
        assertEquals(List.of("default"), runtime.tenantsAsked);
    }

    @Test
    void askPrintsStringAndOtherRepliesAsText() {
        TroupeCommands commands = new TroupeCommands(runtime);

        commands.ask(out, "acme", "upper", "abc");
        commands.ask(out, "acme", "count", "a b c");

        assertEquals("ABC\n3\n", printed());
        assertEquals(List.of("acme", "acme"), runtime.tenantsAsked);
    }

    @Test
    void askPrintsTheCodeAndDetailOfAFailure() {
        runtime.failingHandler("picky", Failure.badRequest("not a number").toException());
        TroupeCommands commands = new TroupeCommands(runtime);

        commands.ask(out, "default", "picky", "x");
        commands.ask(out, "default", "nobody", "x");

        assertEquals("ERROR bad.request: not a number\nERROR no.handler: no handler for nobody\n", printed());
    }

    @Test
    void askReportsATimeoutAsHandlerTimeout() {
        runtime.failingHandler("slow", new TimeoutException());

        new TroupeCommands(runtime).ask(out, "default", "slow", "x");

        assertEquals("ERROR " + ErrorCode.HANDLER_TIMEOUT + ": no reply within 10 s\n", printed());
    }

    @Test
    void askReportsARuntimeThatThrowsInsteadOfFailingTheStage() {
        runtime.askThrows = new TroupeException(ErrorCode.SERVER_SHUTDOWN, "stopping");

        new TroupeCommands(runtime).ask(out, "default", "echo", "x");

        assertEquals("ERROR server.shutdown: stopping\n", printed());
    }

    @Test
    void askRejectsABlankNameOrTenant() {
        TroupeCommands commands = new TroupeCommands(runtime);

        commands.ask(out, "default", " ", "x");
        commands.ask(out, "", "echo", "x");

        assertEquals("ERROR bad.request: the message name must not be blank\n"
                + "ERROR bad.request: the tenant must not be blank\n", printed());
    }

    @Test
    void handlersListsHandlerNamesThenFactoryNames() {
        runtime.factories.add("wordcount.chunk");

        new TroupeCommands(runtime).handlers(out);

        assertEquals("handler  count\nhandler  echo\nhandler  upper\nfactory  wordcount.chunk\n", printed());
    }

    @Test
    void everyCommandSaysTheRuntimeIsNotAvailableWithoutIt() {
        TroupeCommands commands = new TroupeCommands();

        commands.actors(out);
        commands.handlers(out);
        commands.ask(out, "default", "echo", "x");

        String line = "ERROR runtime.unavailable: the Troupe runtime is not available"
                + " (is bundle io.troupe.host active?)\n";
        assertEquals(line + line + line, printed());
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
