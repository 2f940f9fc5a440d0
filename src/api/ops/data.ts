/**
 * Data: pages by offset (all, or one run's by lot number), the streaming reader over them,
 * not-yet-exported rows, mark exported, remove. Pages by offset are reads and are retried.
 * Not-exported rows are handed out by the server (they become "being exported"), and marking
 * and removing change data for good: none of the three is replayed once it may have reached the
 * server (see retry.ts).
 */
import { type ApiResult, type CallOptions, checkRequest, type MainCaller, query } from '../http/mainCaller';
import {
  type DataPage,
  dataPageResponseSchema,
  dataQuerySchema,
  lotDataQuerySchema,
  type NotExportedPage,
  notExportedQuerySchema,
  notExportedResponseSchema,
} from '../schemas/dataSchemas';
import { nullDataResponseSchema } from '../schemas/opsSchemas';
import { taskIdBodySchema } from '../schemas/runSchemas';
import { DataReader, type DataReaderOptions } from './dataReader';

export const DATA_PLAN_NOTE = 'Data operations need a Standard, Professional or Enterprise plan.';

export interface DataPageRequest {
  /** 0 = the first row; afterwards, the `offset` the previous reply returned. */
  offset: number;
  /** 1 to 1000. */
  size: number;
}

export interface ReadDataOptions extends DataReaderOptions {
  /** Read one run's rows (`/data/lotno/all`) instead of all of them. */
  lotNo?: string;
}

export class DataOps {
  constructor(private readonly caller: MainCaller) {}

  async getData(taskId: string, page: DataPageRequest, o: CallOptions = {}): Promise<ApiResult<DataPage>> {
    const q = checkRequest(dataQuerySchema, { taskId, ...page }, 'get data');
    return this.caller.call(
      {
        method: 'GET',
        path: `/data/all${query({ taskId: q.taskId, offset: q.offset, size: q.size })}`,
        retry: 'safe',
        operation: `get the data of task ${q.taskId}`,
        response: dataPageResponseSchema,
        planNote: DATA_PLAN_NOTE,
      },
      o,
    );
  }

  /** One run's rows; the lot number comes from the service (no published status carries it). */
  async getLotData(
    taskId: string,
    lotNo: string,
    page: DataPageRequest,
    o: CallOptions = {},
  ): Promise<ApiResult<DataPage>> {
    const q = checkRequest(lotDataQuerySchema, { taskId, lotNo, ...page }, "get one run's data");
    return this.caller.call(
      {
        method: 'GET',
        path: `/data/lotno/all${query({ taskId: q.taskId, lotno: q.lotNo, offset: q.offset, size: q.size })}`,
        retry: 'safe',
        operation: `get the data of run ${q.lotNo} of task ${q.taskId}`,
        response: dataPageResponseSchema,
        planNote: DATA_PLAN_NOTE,
      },
      o,
    );
  }

  /** Every row from `startOffset` on, as an async iterator of pages (see DataReader). */
  readData(taskId: string, o: ReadDataOptions = {}): DataReader {
    const { lotNo, ...options } = o;
    const id = checkRequest(taskIdBodySchema, { taskId }, 'read data').taskId;
    return new DataReader(
      (offset, size, signal) =>
        lotNo === undefined
          ? this.getData(id, { offset, size }, { signal })
          : this.getLotData(id, lotNo, { offset, size }, { signal }),
      options,
    );
  }

  /**
   * Rows not yet exported, at most `size`. They stay "being exported" until `markExported`; write
   * them somewhere safe before marking. Not replayed after an ambiguous failure (the server may
   * have handed the rows out).
   */
  async getNotExportedData(taskId: string, size: number, o: CallOptions = {}): Promise<ApiResult<NotExportedPage>> {
    const q = checkRequest(notExportedQuerySchema, { taskId, size }, 'get data not yet exported');
    return this.caller.call(
      {
        method: 'GET',
        path: `/data/notexported${query({ taskId: q.taskId, size: q.size })}`,
        retry: 'unsent',
        operation: `get the data of task ${q.taskId} not yet exported`,
        response: notExportedResponseSchema,
        planNote: DATA_PLAN_NOTE,
      },
      o,
    );
  }

  markExported(taskId: string, o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.write('/data/markexported', taskId, 'mark the data of task {id} as exported', o);
  }

  /** Removes every row of the task. Irreversible. */
  removeData(taskId: string, o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.write('/data/remove', taskId, 'remove the data of task {id}', o);
  }

  private async write(path: string, taskId: string, operation: string, o: CallOptions): Promise<ApiResult<null>> {
    const body = checkRequest(taskIdBodySchema, { taskId }, operation.replace(' of task {id}', ''));
    const r = await this.caller.call(
      {
        method: 'POST',
        path,
        body,
        retry: 'unsent',
        operation: operation.replace('{id}', body.taskId),
        response: nullDataResponseSchema,
        planNote: DATA_PLAN_NOTE,
      },
      o,
    );
    return { data: null, requestId: r.requestId };
  }
}
