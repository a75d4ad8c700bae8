package io.troupe.host.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HeapReserveTest {

    @Test
    void holdsASixtyFourthOfTheHeapBetweenOneAndSixteenMebibytes() {
        assertEquals(4 << 20, HeapReserve.bytesFor(256L << 20));
        assertEquals(HeapReserve.MIN_BYTES, HeapReserve.bytesFor(32L << 20));
        assertEquals(HeapReserve.MAX_BYTES, HeapReserve.bytesFor(8L << 30));
        assertEquals(HeapReserve.MAX_BYTES, HeapReserve.bytesFor(Long.MAX_VALUE));
    }

    @Test
    void releaseLetsTheReserveGo() {
        HeapReserve reserve = HeapReserve.forThisJvm();
        assertEquals(HeapReserve.bytesFor(Runtime.getRuntime().maxMemory()), reserve.held());
        reserve.release();
        reserve.release();
        assertEquals(0, reserve.held());
    }
}
