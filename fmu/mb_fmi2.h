/* mb_fmi2.h - the FMI 2.0 interface as the FMU exports it: types, status codes, the callbacks
 * a master passes and the functions (the common part, Co-Simulation and Model Exchange),
 * written from the published standard (Functional Mock-up Interface 2.0.x, Modelica
 * Association: chapter 2.1 for the types and the common functions, chapter 3 for Model
 * Exchange, chapter 4 for Co-Simulation). The names, types and
 * signatures are the interface; the text is ours. Used by the wrapper (fmu/mb_fmu.c) and by a
 * test acting as the master (tests/test_fmu.c). */
#ifndef MB_FMI2_H
#define MB_FMI2_H

#include <stddef.h>

/* The platform "default": the C types of the standard's reference platform. */
typedef void *fmi2Component;               /* one instance of the FMU */
typedef void *fmi2ComponentEnvironment;    /* the master's pointer, handed back to its logger */
typedef void *fmi2FMUstate;                /* a saved state (fmi2GetFMUstate) */
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
#define fmi2True 1
#define fmi2False 0

#define MB_FMI2_VERSION "2.0"
#define MB_FMI2_TYPES_PLATFORM "default"

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment env, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t nobj, size_t size);   /* zeroed, as calloc */
typedef void (*fmi2CallbackFreeMemory)(void *obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment env, fmi2Status status);

/* What fmi2NewDiscreteStates reports (Model Exchange). */
typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;

typedef struct {
    const fmi2CallbackLogger logger;
    const fmi2CallbackAllocateMemory allocateMemory;
    const fmi2CallbackFreeMemory freeMemory;
    const fmi2StepFinished stepFinished;          /* asynchronous steps only (unused here) */
    const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* The exported symbols (no function prefix: the FMU is a shared library of its own). */
#if defined(__GNUC__)
#define MB_FMI2_EXPORT __attribute__((visibility("default")))
#else
#define MB_FMI2_EXPORT
#endif

/* Common functions */
MB_FMI2_EXPORT const char *fmi2GetTypesPlatform(void);
MB_FMI2_EXPORT const char *fmi2GetVersion(void);
MB_FMI2_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn,
                                              size_t nCategories, const fmi2String categories[]);
MB_FMI2_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType,
                                             fmi2String fmuGUID, fmi2String fmuResourceLocation,
                                             const fmi2CallbackFunctions *functions,
                                             fmi2Boolean visible, fmi2Boolean loggingOn);
MB_FMI2_EXPORT void fmi2FreeInstance(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined,
                                              fmi2Real tolerance, fmi2Real startTime,
                                              fmi2Boolean stopTimeDefined, fmi2Real stopTime);
MB_FMI2_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2Terminate(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2Reset(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Real value[]);
MB_FMI2_EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                         fmi2Integer value[]);
MB_FMI2_EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                         fmi2Boolean value[]);
MB_FMI2_EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        fmi2String value[]);
MB_FMI2_EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Real value[]);
MB_FMI2_EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                         const fmi2Integer value[]);
MB_FMI2_EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                         const fmi2Boolean value[]);
MB_FMI2_EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        const fmi2String value[]);
MB_FMI2_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state);
MB_FMI2_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state);
MB_FMI2_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state);
MB_FMI2_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size);
MB_FMI2_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state,
                                                fmi2Byte serializedState[], size_t size);
MB_FMI2_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[],
                                                  size_t size, fmi2FMUstate *state);
MB_FMI2_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c,
                                                       const fmi2ValueReference vUnknown_ref[], size_t nUnknown,
                                                       const fmi2ValueReference vKnown_ref[], size_t nKnown,
                                                       const fmi2Real dvKnown[], fmi2Real dvUnknown[]);

/* Co-Simulation */
MB_FMI2_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                                      size_t nvr, const fmi2Integer order[],
                                                      const fmi2Real value[]);
MB_FMI2_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                                       size_t nvr, const fmi2Integer order[],
                                                       fmi2Real value[]);
MB_FMI2_EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                                     fmi2Real communicationStepSize,
                                     fmi2Boolean noSetFMUStatePriorToCurrentPoint);
MB_FMI2_EXPORT fmi2Status fmi2CancelStep(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value);
MB_FMI2_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value);
MB_FMI2_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value);
MB_FMI2_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value);
MB_FMI2_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value);

/* Model Exchange */
MB_FMI2_EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *eventInfo);
MB_FMI2_EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c);
MB_FMI2_EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                      fmi2Boolean *enterEventMode, fmi2Boolean *terminateSimulation);
MB_FMI2_EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time);
MB_FMI2_EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx);
MB_FMI2_EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx);
MB_FMI2_EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni);
MB_FMI2_EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx);
MB_FMI2_EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx);

#endif /* MB_FMI2_H */
