// Caffe — ZeroMQ binding tests.
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Sockets from Swift concurrency")
struct AsyncSocketTests {
    @Test func tasksExchangeMessagesWithoutBlockingThreads() async throws {
        let context = try ZMQContext()
        let endpoint = ZMQTestEndpoints.ipc("async")
        let server = try context.socket(.router)
        try server.bind(endpoint)

        // The server task owns its socket; the clients run concurrently with their own sockets.
        async let served: Int = {
            var answered = 0
            while answered < 40 {
                let frames = try await server.receiveMultipart()
                try await server.send(multipart: [frames[0].bytes, "", "re: " + frames[2].string])
                answered += 1
            }
            return answered
        }()
        let replies = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<4 {
                group.addTask {
                    let socket = try context.socket(.dealer)
                    try socket.connect(endpoint)
                    var replies: [String] = []
                    for request in 0..<10 {
                        try await socket.send(multipart: ["", "c\(client)-\(request)"])
                        let reply = try await socket.receiveMultipart()
                        replies.append(reply[1].string)
                    }
                    socket.close()
                    return replies
                }
            }
            var all: [String] = []
            for try await replies in group { all += replies }
            return all
        }
        #expect(try await served == 40)
        #expect(Set(replies) == Set((0..<4).flatMap { client in (0..<10).map { "re: c\(client)-\($0)" } }))
    }

    @Test func asyncReceiveTimesOutAndIsCancellable() async throws {
        let context = try ZMQContext()
        let socket = try context.socket(.pull)
        try socket.bind(ZMQTestEndpoints.inproc("async-timeout"))
        let start = ContinuousClock.now
        #expect(try await socket.receive(timeout: .milliseconds(100)) == nil)
        #expect(ContinuousClock.now - start >= .milliseconds(95))

        let waiting = Task {
            let lonely = try context.socket(.pull)
            try lonely.bind(ZMQTestEndpoints.inproc("async-cancel"))
            _ = try await lonely.receive()
        }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func asyncSendWaitsForRoomInTheQueue() async throws {
        let context = try ZMQContext()
        let push = try context.socket(.push)
        try push.set(.sendHighWaterMark, to: 2)
        let endpoint = try push.bind(ZMQTestEndpoints.tcpLoopback)

        let consumer = Task {
            let pull = try context.socket(.pull)
            try pull.set(.receiveHighWaterMark, to: 2)
            try pull.connect(endpoint)
            var received: [String] = []
            for try await frames in pull.messages() {
                received.append(frames[0].string)
                if received.count == 200 { break }
            }
            return received
        }
        for number in 0..<200 { try await push.send("m\(number)") }
        #expect(try await consumer.value == (0..<200).map { "m\($0)" })
    }
}
