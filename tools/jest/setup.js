require('reflect-metadata');
process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
