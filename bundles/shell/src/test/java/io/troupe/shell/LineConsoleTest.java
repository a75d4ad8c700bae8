package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.apache.felix.gogo.runtime.CommandProcessorImpl;
import org.apache.felix.gogo.runtime.threadio.ThreadIOImpl;
import org.apache.felix.service.command.CommandSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

import io.troupe.client.deploy.StatusPoller;
import io.troupe.testsupport.HostStatus;
import io.troupe.testsupport.ManualClock;
import io.troupe.testsupport.StubRuntime;
import io.troupe.testsupport.TestJars;

/**
 * Runs the commands through a real Gogo runtime, outside a framework.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread, which also runs the console loop; Gogo
 * runs each command on a job thread of its own and the test reads the output after the loop ends.
 */
class LineConsoleTest {

    private final ThreadIOImpl threadIO = new ThreadIOImpl();
    private final CommandProcessorImpl processor = new CommandProcessorImpl(threadIO);
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final StubRuntime runtime = new StubRuntime()
            .handler("echo", message -> message.content())
            .handler("wordcount", message -> message.text().split("\\s+").length);

    @BeforeEach
    void startGogo() {
        threadIO.start();
        processor.addCommand("troupe", new TroupeCommands(runtime));
    }

    @AfterEach
    void stopGogo() {
        processor.stop();
        threadIO.stop();
    }

    @Test
    void printsTheReplyOfEachAskLineInOrder() {
        run("ask echo hello\n"
                + "ask wordcount \"a b c\"\n"
                + "troupe:ask -t acme echo hello   world\n");

        assertEquals("hello\n3\nhello world\n", out());
        assertEquals("", err());
        assertEquals(java.util.List.of("default", "default", "acme"), runtime.tenantsAsked);
    }

    @Test
    void printsReturnedValuesFormattedAndSkipsBlankLinesCommentsAndEmptyResults() {
        runtime.deadLetters = 42;

        processor.addCommand("test", new Object() {
            public String nothing() {
                return "";
            }
        }, "nothing");

        run("\n# a comment\n   \ndeadletters\nnothing\n");

        assertEquals("42\n", out());
        assertEquals("", err());
    }

    @Test
    void reportsAnUnknownCommandOnStandardErrorAndGoesOn() {
        run("nosuchcommand\nask echo still here\n");

        assertEquals("still here\n", out());
        assertTrue(err().startsWith("gogo: CommandNotFoundException: Command not found: nosuchcommand"), err());
    }

    @Test
    void reportsLinesThatArriveWithoutACommandProcessor() {
        new LineConsole(reader("ask echo hello\n"), out, err, () -> null, () -> false).run();

        assertEquals("", out());
        assertEquals("troupe: no Gogo command processor is available; line not run: ask echo hello\n", err());
    }

    @Test
    void stopsAtTheFirstLineReadAfterItWasClosed() {
        new LineConsole(reader("ask echo hello\n"), out, err, () -> processor, () -> true).run();

        assertEquals("", out());
        assertEquals("troupe: the shell bundle has stopped; line not run: ask echo hello\n", err());
    }

    @Test
    void looksForACommandInTheTroupeScopeFirst(@TempDir Path home) throws Exception {
        Path deploy = Files.createDirectory(home.resolve("deploy"));
        Path v1 = TestJars.bundle(home.resolve("v1/counter.jar"), "io.troupe.sample.counter", "1.0.0", "v1");
        Path v2 = TestJars.bundle(home.resolve("counter-2.0.0.jar"), "io.troupe.sample.counter", "2.0.0", "v2");
        processor.addCommand("felix", new Object() {
            public String update(String bundle, String url) {
                return "felix:update " + bundle;
            }
        }, "update");
        processor.addCommand("troupe", new PluginCommands(() -> new Bundle[0], deploy.toString(),
                hostJudging(deploy, "running", null), Duration.ofSeconds(60)));
        processor.addCommand("test", new Object() {
            public Object scope(CommandSession session) {
                return session.get("SCOPE");
            }
        }, "scope");

        run("scope\ndeploy " + v1 + "\nupdate counter " + v2 + "\nfelix:update 12 x\n");

        assertEquals("troupe:*\n"
                + "deployed io.troupe.sample.counter 1.0.0 as deploy/counter.jar: running\n"
                + "updated deploy/counter.jar: io.troupe.sample.counter 1.0.0 -> io.troupe.sample.counter 2.0.0:"
                + " running\n"
                + "felix:update 12\n", out());
        assertEquals("", err());
        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void aDeployTheHostRefusesPrintsTheErrorOnTheOutputFailsTheLineAndTheNextLineRuns(@TempDir Path home)
            throws Exception {
        Path deploy = Files.createDirectory(home.resolve("deploy"));
        Path jar = TestJars.bundle(home.resolve("kv.jar"), "kv", "6.0.0");
        processor.addCommand("troupe", new PluginCommands(() -> new Bundle[0], deploy.toString(),
                hostJudging(deploy, "failed", "the bundle did not start: boom"), Duration.ofSeconds(60)));

        run("deploy " + jar + "\nask echo next\n");

        assertEquals("ERROR deploy.rejected: the bundle did not start: boom\nrunning: nothing\nnext\n", out());
        assertEquals("gogo: DeployException: the bundle did not start: boom\n", err());
    }

    /** A poller on a manual clock whose pauses play the host, judging each new jar with {@code outcome}. */
    private static StatusPoller hostJudging(Path deploy, String outcome, String reason) {
        ManualClock clock = new ManualClock(Instant.parse("2026-12-01T21:00:00Z"));
        return new StatusPoller(clock, pause -> {
            clock.advance(pause);
            try {
                HostStatus.judgeNew(deploy, outcome, null, reason, clock.instant());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private void run(String input) {
        new LineConsole(reader(input), out, err, () -> processor, () -> false).run();
    }

    private static BufferedReader reader(String input) {
        return new BufferedReader(new StringReader(input));
    }

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
