package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorRef;

/** What cannot be stored is refused with the actor, the offending type, where it sits and what to do. */
class StateCodecRefusalTest {

    private static final String ACTOR = "handler:counter.add@acme";
    private final StateCodec codec = new StateCodec();

    /** Stands for a plugin's own class. */
    record Total(long value) {
    }

    /** Stands for a plugin's own enum. */
    enum Colour { RED }

    private UnstorableStateException refused(Object state) {
        return assertThrows(UnstorableStateException.class, () -> codec.encode(state, ACTOR));
    }

    @Test
    void aPluginClassInsideAListInsideAMapIsNamedWithItsPath() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("owner", "acme");
        state.put("totals", List.of(1L, 2L, 3L, new Total(4)));
        UnstorableStateException refusal = refused(state);
        assertEquals("actor handler:counter.add@acme: state holds " + Total.class.getName() + " at $.totals[3];"
                + " only JDK and API value types can be stored: keep the plugin's own classes out of exportState"
                + " (see docs/state-format.md)", refusal.getMessage());
        assertEquals(ACTOR, refusal.actor());
        assertEquals(Total.class.getName(), refusal.type());
        assertEquals("$.totals[3]", refusal.path());
    }

    @Test
    void theRootItselfIsAtDollar() {
        assertEquals("$", refused(new Total(1)).path());
        assertEquals(Thread.class.getName(), refused(Thread.currentThread()).type());
        assertEquals(Object.class.getName(), refused(new Object()).type());
    }

    @Test
    void pathsNameMapKeysOfEveryKindSetElementsArrayIndexesAndOptionals() {
        assertEquals("$[\"a key\"][1]", refused(Map.of("a key", List.of(0, new Total(1)))).path());
        assertEquals("${42}.get()", refused(Map.of(42, Optional.of(new Total(1)))).path());
        assertEquals("$[0]{key 1}", refused(List.of(mapOf("ok", 1, new Total(2), 3))).path());
        assertEquals("$[2]", refused(new Object[] {1, 2, new Total(3)}).path());
        assertEquals("$.x[0]", refused(Map.of("x", java.util.Set.of(new Total(3)))).path());
    }

    @Test
    void anActorRefIsRefusedWithTheReasonAndTheFix() {
        ActorRef ref = (ActorRef) Proxy.newProxyInstance(ActorRef.class.getClassLoader(),
                new Class<?>[] {ActorRef.class}, (proxy, method, args) -> null);
        UnstorableStateException refusal = refused(Map.of("peer", ref));
        assertEquals("$.peer", refusal.path());
        assertTrue(refusal.getMessage().contains("an ActorRef is a runtime address, meaningless after a restart"),
                refusal.getMessage());
    }

    @Test
    void aLambdaIsRefusedAsCode() {
        Supplier<String> lambda = () -> "x";
        UnstorableStateException refusal = refused(List.of(lambda));
        assertTrue(refusal.getMessage().contains("a lambda is code, not a value"), refusal.getMessage());
        assertEquals("$[0]", refusal.path());
    }

    @Test
    void otherCollectionsThanListSetAndMapAreRefusedWithTheFix() {
        UnstorableStateException refusal = refused(new ArrayDeque<>(List.of(1)));
        assertEquals(ArrayDeque.class.getName(), refusal.type());
        assertTrue(refusal.getMessage().contains("copy it into one"), refusal.getMessage());
    }

    @Test
    void aPluginEnumAndArraysOfPluginClassesAreRefusedEvenWhenEmpty() {
        assertTrue(refused(Colour.RED).getMessage().contains("only enums of java.* are stored"));
        assertEquals(Total[].class.getName(), refused(new Total[0]).type());
        assertEquals(Colour[].class.getName(), refused(new Colour[0]).type());
        assertEquals(Thread[][].class.getName(), refused(new Thread[0][]).type());
    }

    @Test
    void aSubclassOfBigIntegerIsRefused() {
        BigInteger custom = new BigInteger("5") {
            private static final long serialVersionUID = 1L;
        };
        assertTrue(refused(custom).getMessage().contains("not a subclass"));
    }

    @Test
    void aCycleIsRefusedWhereItCloses() {
        List<Object> outer = new ArrayList<>();
        List<Object> inner = new ArrayList<>();
        outer.add("x");
        outer.add(inner);
        inner.add(outer);
        UnstorableStateException refusal = refused(outer);
        assertEquals("$[1][0]", refusal.path());
        assertTrue(refusal.getMessage().contains("a cycle (a java.util.ArrayList that contains itself)"),
                refusal.getMessage());
        Map<String, Object> self = new LinkedHashMap<>();
        self.put("me", self);
        assertEquals("$.me", refused(self).path());
        Object[] array = new Object[1];
        array[0] = array;
        assertEquals("$[0]", refused(array).path());
    }

    @Test
    void nestingDeeperThan512LevelsIsRefused() {
        Object state = 1;
        for (int i = 0; i <= StateFormat.MAX_DEPTH; i++) {
            state = List.of(state);
        }
        UnstorableStateException refusal = refused(state);
        assertTrue(refusal.getMessage().contains("values nested more than 512 levels deep"), refusal.getMessage());
        assertEquals("$" + "[0]".repeat(StateFormat.MAX_DEPTH), refusal.path());
    }

    @Test
    void aSetWhoseSizeDisagreesWithItsElementsIsRefusedRatherThanWrittenWrong() {
        UnstorableStateException refusal = refused(new AbstractSet<Integer>() {
            @Override
            public Iterator<Integer> iterator() {
                return List.of(1, 2, 3).iterator();
            }

            @Override
            public int size() {
                return 2;
            }
        });
        assertTrue(refusal.getMessage().contains("changed while it was encoded (size 2, 3 elements)"),
                refusal.getMessage());
    }

    private static Map<Object, Object> mapOf(Object... keysAndValues) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
