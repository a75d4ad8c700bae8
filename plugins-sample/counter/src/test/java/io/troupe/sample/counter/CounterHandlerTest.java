package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;

import io.troupe.api.Actor;
import io.troupe.api.Message;
import io.troupe.testkit.ActorHarness;

/**
 * Checks that {@link CounterHandler} reports the version of the bundle DS activated it in, not a
 * version written in the source.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class CounterHandlerTest {

    @Test
    void theVersionRepliedIsTheBundleVersionOfTheActivatingBundle() throws Exception {
        for (String version : new String[] {"1.0.0", "2.0.0", "2.1.3.rc1"}) {
            CounterHandler handler = new CounterHandler(contextOfBundleVersion(version));
            Object reply = ActorHarness.start(handler).deliver(Message.of(CounterActor.VERSION, "")).onlyMessage();
            assertArrayEquals(version.getBytes(StandardCharsets.UTF_8), assertInstanceOf(byte[].class, reply));
        }
    }

    @Test
    void everyCreateReturnsANewActor() {
        CounterHandler handler = new CounterHandler(contextOfBundleVersion("1.0.0"));
        Actor first = handler.create();
        assertNotSame(first, handler.create());
    }

    /** A BundleContext whose bundle has {@code version}; every other method is out of bounds. */
    private static BundleContext contextOfBundleVersion(String version) {
        Bundle bundle = stub(Bundle.class, "getVersion", Version.parseVersion(version));
        return stub(BundleContext.class, "getBundle", bundle);
    }

    private static <T> T stub(Class<T> type, String method, Object result) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, called, args) -> {
            if (called.getName().equals(method) && (args == null || args.length == 0)) {
                return result;
            }
            throw new UnsupportedOperationException(type.getSimpleName() + "." + called.getName() + " in a stub");
        }));
    }
}
