package io.troupe.host.actor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.troupe.api.ActorFactory;
import io.troupe.api.DeadLetter;

/**
 * A deterministic runtime for one test: manual dispatcher, manual clock, factories by name, and the
 * dead letters recorded.
 *
 * <p><b>Threading:</b> the test thread only.
 */
final class TestRuntime {

    final ManualDispatcher dispatcher = new ManualDispatcher();
    final ManualScheduler scheduler = new ManualScheduler();
    final Map<String, ActorFactory> factories = new HashMap<>();
    final List<DeadLetter> deadLetters = new ArrayList<>();
    final ActorSystem system;

    TestRuntime() {
        this(ActorSystem.DEFAULT_THROUGHPUT);
    }

    TestRuntime(int throughput) {
        FactoryResolver resolver = name -> Optional.ofNullable(factories.get(name))
                .map(factory -> FactorySource.of(factory, "factory:" + name));
        system = new ActorSystem(dispatcher, scheduler, resolver, throughput);
        system.deadLetters().subscribe(deadLetters::add);
    }

    void settle() {
        dispatcher.runUntilIdle();
    }
}
