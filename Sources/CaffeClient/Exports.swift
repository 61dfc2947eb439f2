// The protocol's messages (`Caffe_V1_OrderEvent`…), `CaffeEndpoint`, `CaffeTopic`, `CaffeMethod`
// and the shard function (`ShardAssignment.shard(of:among:)`) come with `import CaffeClient`.
@_exported import CaffeProtocol
