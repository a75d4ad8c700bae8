package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

class ReadableNameTest {

    static final class Counter {
    }

    @Test
    void lambdasAndAnonymousClassesNameTheClassTheyWereWrittenIn() {
        Supplier<String> lambda = () -> "x";
        Supplier<String> reference = String::new;
        Object anonymous = new Object() {
        };
        assertEquals("ReadableNameTest", ReadableName.of(lambda.getClass()));
        assertEquals("ReadableNameTest", ReadableName.of(reference.getClass()));
        assertEquals("ReadableNameTest", ReadableName.of(anonymous.getClass()));
    }

    @Test
    void namedClassesKeepTheirSimpleName() {
        assertEquals("Counter", ReadableName.of(Counter.class));
        assertEquals("String", ReadableName.of(String.class));
    }

    @Test
    void aDerivedActorNameIsTheReadableNameAndTheId() {
        TestRuntime runtime = new TestRuntime();
        var actor = runtime.system.spawn(() -> (ctx, message) -> { }, io.troupe.api.ActorOptions.defaults());
        assertEquals("ReadableNameTest-" + actor.id(), actor.name());
    }
}
