package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import io.troupe.api.ActorFactory;

/** Every builder argument out of its bounds is refused at once, with a message that names it and its value. */
class TroupeBuilderTest {

    private static final ActorFactory ECHO = () -> (ctx, message) -> ctx.reply(message);

    @Test
    void eachSettingRefusesAValueOutOfItsBoundsAndSaysWhichAndWhy() {
        refused("workers must be within 1..1024, was 0", () -> Troupe.builder().workers(0));
        refused("workers must be within 1..1024, was 1025", () -> Troupe.builder().workers(1025));
        refused("maxWorkers must be within 1..4096, was 0", () -> Troupe.builder().maxWorkers(0));
        refused("throughput must be at least 1, was 0", () -> Troupe.builder().throughput(0));
        refused("workerSpin must not be negative, was PT-0.001S",
                () -> Troupe.builder().workerSpin(Duration.ofMillis(-1)));
        refused("threadNamePrefix must not be blank or start or end with blanks, was ' '",
                () -> Troupe.builder().threadNamePrefix(" "));
        refused("threadNamePrefix must not be blank or start or end with blanks, was 'app '",
                () -> Troupe.builder().threadNamePrefix("app "));
        refused("shutdownTimeout must be positive, was PT0S", () -> Troupe.builder().shutdownTimeout(Duration.ZERO));
        assertThrows(NullPointerException.class, () -> Troupe.builder().workerSpin(null));
    }

    @Test
    void registrationsRefuseBlankNamesBadPoolBoundsAndANameTakenTwice() {
        refused("messageName must not be blank or start or end with blanks, was ''",
                () -> Troupe.builder().handler("", ECHO));
        refused("factoryName must not be blank or start or end with blanks, was ' kv'",
                () -> Troupe.builder().factory(" kv", ECHO));
        refused("min must be at least 1, was 0", () -> Troupe.builder().poolableHandler("work", ECHO, 0, 2));
        refused("max must be at least min (3), was 2", () -> Troupe.builder().poolableHandler("work", ECHO, 3, 2));
        refused("a handler for 'echo' is registered already",
                () -> Troupe.builder().handler("echo", ECHO).poolableHandler("echo", ECHO, 1, 2));
        refused("a factory named 'kv' is registered already",
                () -> Troupe.builder().factory("kv", ECHO).factory("kv", ECHO));
        assertThrows(NullPointerException.class, () -> Troupe.builder().handler("echo", null));
    }

    @Test
    void buildRefusesFewerMaxWorkersThanWorkers() {
        refused("maxWorkers (2) must be at least workers (3)", () -> Troupe.builder().workers(3).maxWorkers(2).build());
    }

    private static void refused(String message, Executable call) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }
}
